#pragma once
// What marks a folder as queueforge's output: readers of folders (site
// discovery, manifest loading) skip what writers (backends/emit) leave, so
// rendered output is never read back as input.
#include <string>
#include <string_view>

namespace queueforge {

// The file in an output folder that lists the files queueforge wrote there,
// so that --prune removes only those and never a foreign file.
inline constexpr const char* kOwnedIndex = ".queueforge-owned";

// Staging folders carry this in their hidden name: "<parent>/.<name>.queueforge-tmp-XXXX".
inline constexpr std::string_view kStagingTag = ".queueforge-tmp-";

// True for the hidden staging folders `build -o` creates (".*.queueforge-tmp-*"):
// readers of folders skip them, so the leftovers of a killed run are never
// read as manifests.
inline bool is_staging_folder(const std::string& file_name) {
    return file_name.starts_with(".") && file_name.find(kStagingTag) != std::string::npos;
}

}  // namespace queueforge
