#pragma once
// The `format` values the API server enforces on custom resources
// (apiextensions-apiserver pkg/apiserver/validation/formats.go and
// kube-openapi strfmt). Every other format is stripped from CRD schemas before
// validation, so it is ignored here too.
#include <cstdint>
#include <string_view>

namespace queueforge::openapi {

enum class Format : std::uint8_t {
    None,
    // numbers: range checks only
    Int32,
    Int64,
    Float,
    Double,
    // strings
    BsonObjectId,
    Uri,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Cidr,
    Mac,
    Uuid,
    Uuid3,
    Uuid4,
    Uuid5,
    Isbn,
    Isbn10,
    Isbn13,
    CreditCard,
    Ssn,
    HexColor,
    RgbColor,
    Byte,
    Password,
    Date,
    Duration,
    DateTime,
    K8sShortName,
    K8sLongName,
};

// The format the API server keeps for a schema whose type is `single_type`
// ("" when the type is missing or a list, as for int-or-string): string
// formats only for string/untyped schemas (names compared without dashes, as
// go-openapi normalises them), int32/int64 for integers, float/double for
// numbers, nothing for other types or unknown names.
Format resolve_format(std::string_view name, std::string_view single_type);

bool is_string_format(Format f);

// True when `s` is valid for the string format `f`.
bool check_string_format(Format f, std::string_view s);

// formats_net.cpp
namespace net_format {
bool is_hostname(std::string_view s);
bool is_ip(std::string_view s);  // net.ParseIP, IPv4 fields may have leading zeros
bool is_cidr(std::string_view s);
bool is_mac(std::string_view s);
bool is_email(std::string_view s);
bool is_request_uri(std::string_view s);
}  // namespace net_format

}  // namespace queueforge::openapi
