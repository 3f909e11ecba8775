// oracle computes, element by element, the expressions of OpenVINO's
// reference kernels that C++ leaves undefined or implementation-defined
// (a float converted to an integer type out of range, integer ops that go
// through a double), as GCC builds them for x86-64. gen.py compiles it
// with g++ -O2 and runs it; the expressions are written as the reference
// headers write them (src/core/reference/include/openvino/reference/).
//
// usage: oracle FUNC SRC DST IN [IN2] OUT
// FUNC is convert, pow, sqrt, exp, log, tanh, sigmoid or round_away; SRC
// and DST are f32, f64, i8, ..., u64; IN, IN2 and OUT are raw
// little-endian arrays.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

static std::vector<char> slurp(const char* path) {
    std::vector<char> v;
    FILE* f = fopen(path, "rb");
    if (!f) return v;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) v.insert(v.end(), buf, buf + n);
    fclose(f);
    return v;
}

template <class T>
static std::vector<T> load(const char* path) {
    auto raw = slurp(path);
    std::vector<T> v(raw.size() / sizeof(T));
    memcpy(v.data(), raw.data(), v.size() * sizeof(T));
    return v;
}

template <class T>
static void store(const char* path, const std::vector<T>& v) {
    FILE* f = fopen(path, "wb");
    fwrite(v.data(), sizeof(T), v.size(), f);
    fclose(f);
}

// noinline keeps GCC from folding the conversions at compile time, which
// could give other values for the undefined cases than the instructions do.
template <class TI, class TO>
__attribute__((noinline)) TO cast(TI v) {
    return static_cast<TO>(v);
}

template <class T>
__attribute__((noinline)) T sigmoid_int(T arg) {
    // reference/sigmoid.hpp, integral T
    T exp_value = static_cast<T>(std::exp(-static_cast<typename std::make_signed<T>::type>(arg)));
    return static_cast<T>(1 / (1 + exp_value));
}

template <class TI, class TO>
static int run(const std::string& func, const char* in, const char* in2, const char* out) {
    auto a = load<TI>(in);
    std::vector<TO> r(a.size());
    if (func == "convert") {
        for (size_t i = 0; i < a.size(); i++) r[i] = cast<TI, TO>(a[i]);
    } else if (func == "pow") {
        auto b = load<TI>(in2);
        for (size_t i = 0; i < a.size(); i++) r[i] = cast<double, TO>(std::pow(a[i], b[i]));
    } else if (func == "sqrt") {
        for (size_t i = 0; i < a.size(); i++) r[i] = cast<double, TO>(std::round(std::sqrt(a[i])));
    } else if (func == "exp") {
        for (size_t i = 0; i < a.size(); i++) r[i] = cast<double, TO>(std::exp(a[i]));
    } else if (func == "log") {
        for (size_t i = 0; i < a.size(); i++) r[i] = cast<double, TO>(std::log(a[i]));
    } else if (func == "tanh") {
        for (size_t i = 0; i < a.size(); i++) r[i] = cast<double, TO>(std::round(std::tanh(a[i])));
    } else if (func == "round_away") {
        for (size_t i = 0; i < a.size(); i++) r[i] = cast<TI, TO>(std::round(a[i]));
    } else if (func == "sigmoid") {
        if constexpr (std::is_integral<TI>::value && std::is_same<TI, TO>::value) {
            for (size_t i = 0; i < a.size(); i++) r[i] = sigmoid_int<TI>(a[i]);
        } else {
            return 2;
        }
    } else {
        return 2;
    }
    store(out, r);
    return 0;
}

template <class TI>
static int dst(const std::string& func, const std::string& d, const char* in, const char* in2, const char* out) {
#define DST(name, T) \
    if (d == name) return run<TI, T>(func, in, in2, out);
    DST("f32", float) DST("f64", double) DST("i8", int8_t) DST("i16", int16_t) DST("i32", int32_t)
    DST("i64", int64_t) DST("u8", uint8_t) DST("u16", uint16_t) DST("u32", uint32_t) DST("u64", uint64_t)
#undef DST
    return 2;
}

int main(int argc, char** argv) {
    if (argc < 6) return 2;
    std::string func = argv[1], s = argv[2], d = argv[3];
    const char* in = argv[4];
    const char* in2 = argc > 6 ? argv[5] : nullptr;
    const char* out = argv[argc - 1];
#define SRC(name, T) \
    if (s == name) return dst<T>(func, d, in, in2, out);
    SRC("f32", float) SRC("f64", double) SRC("i8", int8_t) SRC("i16", int16_t) SRC("i32", int32_t)
    SRC("i64", int64_t) SRC("u8", uint8_t) SRC("u16", uint16_t) SRC("u32", uint32_t) SRC("u64", uint64_t)
#undef SRC
    return 2;
}
