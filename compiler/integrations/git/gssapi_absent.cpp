// The GSS-API entry points Debian's libgit2 archive refers to, for the fully
// static release binary only (QF_GSSAPI_ABSENT, set by cmake/release.cmake on
// the queueforge executable). libgit2 uses GSS-API solely for HTTP
// "Negotiate" (Kerberos/SPNEGO) authentication of remotes
// (libgit2 1.5, src/libgit2/transports/auth_negotiate.c); queueforge only
// reads local repositories, and Debian ships no static Kerberos library. Every
// call here reports GSS_S_FAILURE ("no mechanism"), so should a remote ever
// be reached, Negotiate is refused with an error instead of being attempted.
// Types and values follow the C bindings of RFC 2744 (gssapi.h).
#ifdef QF_GSSAPI_ABSENT

#include <cstddef>
#include <cstdint>

namespace {
using OM_uint32 = std::uint32_t;
struct gss_buffer_desc { std::size_t length; void* value; };
struct gss_OID_desc { OM_uint32 length; void* elements; };
struct gss_OID_set_desc { std::size_t count; gss_OID_desc* elements; };
using gss_buffer_t = gss_buffer_desc*;
using gss_OID = gss_OID_desc*;
using gss_OID_set = gss_OID_set_desc*;
using gss_name_t = void*;
using gss_ctx_id_t = void*;
using gss_cred_id_t = void*;
using gss_channel_bindings_t = void*;

constexpr OM_uint32 kComplete = 0;
constexpr OM_uint32 kFailure = 13u << 16;  // GSS_S_FAILURE: a routine error

OM_uint32 fail(OM_uint32* minor) {
    if (minor) *minor = 0;
    return kFailure;
}
void empty(gss_buffer_t b) {
    if (b) *b = {0, nullptr};
}
// The name type libgit2 passes to gss_import_name (never dereferenced here).
gss_OID_desc hostbased_service{0, nullptr};
}  // namespace

extern "C" {
gss_OID GSS_C_NT_HOSTBASED_SERVICE = &hostbased_service;

OM_uint32 gss_indicate_mechs(OM_uint32* minor, gss_OID_set* mechs) {
    if (mechs) *mechs = nullptr;
    return fail(minor);
}
OM_uint32 gss_import_name(OM_uint32* minor, gss_buffer_t, gss_OID, gss_name_t* name) {
    if (name) *name = nullptr;
    return fail(minor);
}
OM_uint32 gss_init_sec_context(OM_uint32* minor, gss_cred_id_t, gss_ctx_id_t*, gss_name_t, gss_OID, OM_uint32,
                               OM_uint32, gss_channel_bindings_t, gss_buffer_t, gss_OID* actual, gss_buffer_t out,
                               OM_uint32* flags, OM_uint32* time) {
    if (actual) *actual = nullptr;
    empty(out);
    if (flags) *flags = 0;
    if (time) *time = 0;
    return fail(minor);
}
OM_uint32 gss_display_status(OM_uint32* minor, OM_uint32, int, gss_OID, OM_uint32* context, gss_buffer_t text) {
    static constexpr char message[] = "GSS-API (Kerberos) is not available in this static build";
    if (minor) *minor = 0;
    if (context) *context = 0;
    // Read-only for the caller, as every status string.
    if (text) *text = {sizeof message - 1, const_cast<char*>(message)};
    return kComplete;
}
// Nothing is ever allocated, so releasing only clears the handles. The
// message of gss_display_status is static: "releasing" it forgets it.
OM_uint32 gss_release_buffer(OM_uint32* minor, gss_buffer_t buffer) {
    if (minor) *minor = 0;
    empty(buffer);
    return kComplete;
}
OM_uint32 gss_release_name(OM_uint32* minor, gss_name_t* name) {
    if (minor) *minor = 0;
    if (name) *name = nullptr;
    return kComplete;
}
OM_uint32 gss_release_oid_set(OM_uint32* minor, gss_OID_set* set) {
    if (minor) *minor = 0;
    if (set) *set = nullptr;
    return kComplete;
}
OM_uint32 gss_delete_sec_context(OM_uint32* minor, gss_ctx_id_t* context, gss_buffer_t out) {
    if (minor) *minor = 0;
    if (context) *context = nullptr;
    empty(out);
    return kComplete;
}
}

#endif  // QF_GSSAPI_ABSENT
