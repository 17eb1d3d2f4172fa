// Historical figures a lesson may quote ({fact.alexnet_top5_error}): numbers nobody in the app
// computes, so each carries where it comes from, and a caption that quotes one gets a "Source:"
// line naming it. Keeping them here, not in prose, lets the rule "a caption never contains a
// number of its own" stay a test (tests/lesson/builtin_test.cpp) and puts every citation in one
// reviewable table. docs/LESSONS.md lists them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "i18n.hpp"

namespace ws::lesson {

struct Fact {
    std::string_view key;       // without the "fact." prefix: "alexnet_top5_error"
    std::string_view english;   // the value as an English sentence quotes it: "15.3 %"
    std::string_view korean;    // as a Korean sentence quotes it: "15.3%"
    std::string_view source;    // short citation, shown under the caption (English in both languages)
    std::string_view source_ko; // the same citation for the Korean lesson ("" = use `source`)
};

const std::vector<Fact>& facts();

// "fact.alexnet_top5_error" -> its entry; nullptr for any other key.
const Fact* find_fact(std::string_view caption_key);

// The value in `lang`, or nullopt when `caption_key` is not a fact.
std::optional<std::string> fact_value(std::string_view caption_key, Language lang);

// A "Source: ..." line naming, once each and in order of first use, where the facts the caption
// quotes come from; empty when it quotes none.
std::string fact_sources(std::string_view caption, Language lang);


}  // namespace ws::lesson
