#pragma once
// Lowered objects → bytes: one YAML stream, or one file per object in a
// folder, written so that a failure leaves the folder as it was.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/object.hpp>
#include <queueforge/base/output_folder.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace queueforge {

// `site_file` names the source in the header comment; empty = no header.
// `annotate_as`, when not empty, writes each object's provenance as a `#`
// comment block after its `---`, naming the site file so (build --annotate;
// explain.hpp). Without it the bytes are exactly those of a plain build.
std::string render_stream(const std::vector<Object>& objects, const std::string& site_file,
                          const std::string& annotate_as = {});
// The same stream written to `out` document by document, without holding
// the whole text (a 10,000-team site renders to hundreds of MiB).
void write_stream(std::ostream& out, const std::vector<Object>& objects, const std::string& site_file,
                  const std::string& annotate_as = "");

// A file name for the object that cannot leave the output folder whatever
// the object's names are: "<NN>-<kind>-[<namespace>.]<name>.yaml", NN the
// kind's place in the apply order.
std::string object_file_name(const Object& o);

// Writes every object to `dir` (created if missing), all or nothing: the
// complete new folder is built beside `dir` in a hidden staging folder
// ("<parent>/.<name>.queueforge-tmp-XXXX") and switched in with one atomic
// rename (renameat2 RENAME_EXCHANGE for an existing folder), so `dir` is at
// every moment wholly the old or wholly the new output, also under kill -9;
// then the old tree is removed. Files in `dir` that queueforge did not write
// are kept: they are hard-linked (or copied) into the new tree before the
// switch, symlinks recreated as symlinks. With `prune`, files queueforge wrote
// earlier that no object maps to any more are left out; without it they are
// kept and stay queueforge's. A folder where an output file goes, an
// unwritable parent or a failed switch leaves `dir` as it was (false, an
// "io" error). Staging folders left by killed runs are removed by the next
// run; SIGINT/SIGTERM during the write remove the staging folder and then end
// the process by that signal. An output path that is a symlink is refused.
// Concurrent runs into the same folder are not supported.
bool write_objects(const std::string& dir, const std::vector<Object>& objects, const std::string& site_file,
                   Diagnostics& diags, bool prune = false, const std::string& annotate_as = {});

// Compares `dir` with what write_objects would write, without writing:
// missing, different and stale files become errors (rules drift.missing,
// drift.changed, drift.stale). Returns true when there is no drift.
bool check_objects(const std::string& dir, const std::vector<Object>& objects, const std::string& site_file,
                   Diagnostics& diags, const std::string& annotate_as = {});

}  // namespace queueforge
