#include <queueforge/base/safe_write.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include <fcntl.h>
#include <unistd.h>

namespace queueforge {

namespace fs = std::filesystem;

bool create_file(const std::string& path, std::string_view bytes, std::string& error, bool sync) {
    // O_EXCL with O_CREAT fails on any existing name, a symlink included, so
    // nothing is ever written through a link (O_NOFOLLOW says so twice).
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        error = "cannot create " + path + ": " + std::strerror(errno);
        return false;
    }
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    bool ok = true;
    while (ok && left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ok = false;
            break;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    if (ok && sync && ::fsync(fd) != 0) ok = false;
    if (!ok) error = "cannot write " + path + ": " + std::strerror(errno);
    if (::close(fd) != 0 && ok) {
        ok = false;
        error = "cannot write " + path + ": " + std::strerror(errno);
    }
    if (!ok) ::unlink(path.c_str());
    return ok;
}

bool replace_file_atomically(const std::string& path, std::string_view bytes, std::string& error) {
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::random_device rd;
    std::string suffix;
    for (int i = 0; i < 10; ++i) suffix += "abcdefghijklmnopqrstuvwxyz0123456789"[rd() % 36];
    std::string name = ".";  // appended: g++ 12 warns -Wrestrict, wrongly, on '"." + std::string'
    name += target.filename().string();
    name += ".queueforge-tmp-";
    name += suffix;
    const std::string tmp = (dir / name).string();
    // Flushed before the rename: after a crash the target is old or whole.
    if (!create_file(tmp, bytes, error, /*sync=*/true)) return false;
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        error = "cannot write " + path + ": " + std::strerror(errno);
        ::unlink(tmp.c_str());
        return false;
    }
    return true;
}

}  // namespace queueforge
