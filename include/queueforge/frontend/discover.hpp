#pragma once
// Which clusters a command-line is about: a GitOps repository holds several
// sites (clusters/prod, clusters/staging, ...) and every command that takes
// sites checks each of them on its own, never merged.
//
// Each `queueforge-site.yaml`, or YAML file whose apiVersion is
// queueforge.io/* and kind Site, beneath a command-line folder is one
// cluster; a file of kind SiteBase (a base, spec.extends) is not, whatever
// its name. Skipped while walking: `.git/`, rendered output folders (they hold
// queueforge's index file, emit.hpp kOwnedIndex), git-ignored paths (the
// .gitignore files of the folders walked and their parents up to the
// repository root; see discover.cpp for the pattern subset understood) and
// symlinked folders. Paths are visited in sorted order, so the clusters come
// out in the same order on every machine.
#include <queueforge/base/diagnostics.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace queueforge::discover {

struct Options {
    // Today's behaviour on request (--as-one-cluster): every path in one
    // cluster, a folder meaning the site file directly inside it.
    bool as_one_cluster = false;
    int max_depth = 32;                  // folders below a command-line folder
    std::size_t max_entries = 200'000;   // files and folders looked at, in all
};

struct Cluster {
    // How the cluster is named in findings and summaries: the site's folder
    // ("clusters/prod", "." for the working folder) or, for a site file with
    // another name, the file ("clusters/east.yaml"); or the command-line path
    // of a plain manifests cluster; "" for --as-one-cluster.
    std::string label;
    std::string site_file;            // "" for a cluster of plain manifests
    // What to read: site files and plain manifest paths, as the commands'
    // readers take them (a site is given as its file).
    std::vector<std::string> inputs;
    // The command-line paths this cluster came from, as given (validate reads
    // these when the whole command line is one cluster).
    std::vector<std::string> paths;
};

// The clusters of `paths` ("." when empty), in order of their labels. When
// at most one site is found, the whole command line is one cluster: the site
// (given as its file) and the plain manifest paths beside it, as before
// (`simulate queues/ jobs/`, `check site/ extra.yaml`). With several sites,
// each site is a cluster, each plain command-line folder is one more, and the
// plain files named on the command line are one more together. Problems are findings in `diags`: an unreadable
// path (rule "io"), two sites with the same metadata.name
// (discover.duplicate-site-name), a site file inside a rendered folder
// (discover.site-in-rendered-folder, skipped), a walk past the limits
// (discover.limit; no clusters are returned then).
std::vector<Cluster> find_clusters(const std::vector<std::string>& paths, const Options& opts, Diagnostics& diags);

// Whether `text` (the content of a YAML file) is a queueforge Site document.
bool is_site_text(const std::string& text);

// Where a site renders when each site gets a folder of its own (build
// --output-per-site NAME, the pre-commit render hook): `<folder>/NAME` for a
// queueforge-site.yaml; for a site file of another name, which may share its
// folder with other sites, `<folder>/NAME/<file stem>`, so no two sites of a
// repository render into one folder.
std::string rendered_folder(const std::string& site_file, const std::string& name);

// Whether `text` is a SiteBase document: a base sites extend (spec.extends),
// never a cluster of its own, so never discovered, even when its file is
// named queueforge-site.yaml.
bool is_site_base_text(const std::string& text);

}  // namespace queueforge::discover
