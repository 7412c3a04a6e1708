#pragma once
// Lowered objects → bytes: one YAML stream, or one file per object in a
// folder, written so that a failure leaves the folder as it was.
#include <queueforge/diagnostics.hpp>
#include <queueforge/object.hpp>

#include <string>
#include <vector>

namespace queueforge {

// `site_file` names the source in the header comment; empty = no header.
// `annotate_as`, when not empty, writes each object's provenance as a `#`
// comment block after its `---`, naming the site file so (build --annotate;
// explain.hpp). Without it the bytes are exactly those of a plain build.
std::string render_stream(const std::vector<Object>& objects, const std::string& site_file,
                          const std::string& annotate_as = {});

// A file name for the object that cannot leave the output folder whatever
// the object's names are: "<NN>-<kind>-[<namespace>.]<name>.yaml", NN the
// kind's place in the apply order.
std::string object_file_name(const Object& o);

// The file in an output folder that lists the files queueforge wrote there,
// so that --prune removes only those and never a foreign file.
inline constexpr const char* kOwnedIndex = ".queueforge-owned";

// Writes every object to `dir` (created if missing). Files go to a temporary
// folder first and are renamed into place only when all were written. With
// `prune`, files queueforge wrote earlier that no object maps to any more are
// removed; files it did not write are never touched.
bool write_objects(const std::string& dir, const std::vector<Object>& objects, const std::string& site_file,
                   Diagnostics& diags, bool prune = false, const std::string& annotate_as = {});

// Compares `dir` with what write_objects would write, without writing:
// missing, different and stale files become errors (rules drift.missing,
// drift.changed, drift.stale). Returns true when there is no drift.
bool check_objects(const std::string& dir, const std::vector<Object>& objects, const std::string& site_file,
                   Diagnostics& diags, const std::string& annotate_as = {});

}  // namespace queueforge
