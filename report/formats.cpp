#include "report/formats.h"

#include "report/writers.h"

#include <array>

namespace fived::report {

namespace {

#define FIVED_SOLVE_ENTRY(NAME) &NAME##_solve_writer(),
#define FIVED_VERIFY_ENTRY(NAME) &NAME##_verify_writer(),

template <class Writer>
const Writer* find_writer(std::span<const Writer* const> all, std::string_view name) {
    for (const Writer* w : all)
        if (w->name == name) return w;
    return nullptr;
}

template <class Writer>
std::string help_of(std::span<const Writer* const> all) {
    std::string s;
    for (const Writer* w : all)
        s.append(s.empty() ? "" : "\n").append(w->name).append(": ").append(w->help);
    return s;
}

} // namespace

std::span<const SolveWriter* const> solve_writers() {
    static const std::array all{FIVED_SOLVE_WRITERS(FIVED_SOLVE_ENTRY)};
    return all;
}

std::span<const VerifyWriter* const> verify_writers() {
    static const std::array all{FIVED_VERIFY_WRITERS(FIVED_VERIFY_ENTRY)};
    return all;
}

const SolveWriter* find_solve_writer(std::string_view name) {
    return find_writer(solve_writers(), name);
}

const VerifyWriter* find_verify_writer(std::string_view name) {
    return find_writer(verify_writers(), name);
}

std::string solve_formats_help() { return help_of(solve_writers()); }
std::string verify_formats_help() { return help_of(verify_writers()); }

} // namespace fived::report
