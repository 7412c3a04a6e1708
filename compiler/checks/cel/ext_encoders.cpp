// cel-go's encoders extension: base64.encode(bytes) and base64.decode(string)
// (standard alphabet; decoding also accepts missing padding, as cel-go does).
#include "checks/cel/functions.hpp"

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int decode_char(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

Result base64_encode(EvalContext& ctx, Args a) {
    if (!arity(a, 1) || !is(a[0], K::Bytes)) return std::nullopt;
    const std::string& in = a[0].as_string();
    if (!ctx.charge(1 + in.size() / 10)) return EvalContext::cost_error();
    std::string out;
    for (std::size_t i = 0; i < in.size(); i += 3) {
        const std::uint32_t b0 = static_cast<unsigned char>(in[i]);
        const std::uint32_t b1 = i + 1 < in.size() ? static_cast<unsigned char>(in[i + 1]) : 0;
        const std::uint32_t b2 = i + 2 < in.size() ? static_cast<unsigned char>(in[i + 2]) : 0;
        const std::uint32_t n = (b0 << 16) | (b1 << 8) | b2;
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += i + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=';
        out += i + 2 < in.size() ? kAlphabet[n & 63] : '=';
    }
    return Value::string(std::move(out));
}

Result base64_decode(EvalContext& ctx, Args a) {
    if (!arity(a, 1) || !is(a[0], K::String)) return std::nullopt;
    std::string in = a[0].as_string();
    if (!ctx.charge(1 + in.size() / 10)) return EvalContext::cost_error();
    while (!in.empty() && in.back() == '=') in.pop_back();
    std::string out;
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : in) {
        const int v = decode_char(c);
        if (v < 0) return Value::error("illegal base64 data");
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    if (in.size() % 4 == 1) return Value::error("illegal base64 data");
    return Value::bytes(std::move(out));
}

}  // namespace

void register_encoders(Registry& r) {
    r.add("base64.encode", base64_encode);
    r.add("base64.decode", base64_decode);
}

}  // namespace queueforge::cel
