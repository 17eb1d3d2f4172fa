#include "facts.hpp"

#include <algorithm>

#include "lesson.hpp"

namespace ws::lesson {

namespace {

constexpr std::string_view kAlexNet = "Krizhevsky, Sutskever & Hinton, NeurIPS 2012";
constexpr std::string_view kAlexNetKo = "Krizhevsky, Sutskever, Hinton, NeurIPS 2012 논문";
constexpr std::string_view kCuda = "NVIDIA: CUDA announced with the GeForce 8800 (Nov 2006), CUDA 1.0 released (Jun 2007)";
constexpr std::string_view kCudaKo = "NVIDIA: GeForce 8800과 함께 CUDA 발표(2006년 11월), CUDA 1.0 출시(2007년 6월)";

}  // namespace

const std::vector<Fact>& facts() {
    // Only figures a primary source states; where the only source is a press report, the value
    // itself says so ("reportedly") and the citation names the report.
    static const std::vector<Fact> table = {
        {"alexnet_top5_error", "15.3 %", "15.3%", kAlexNet, kAlexNetKo},
        {"alexnet_runner_up_error", "26.2 %", "26.2%", kAlexNet, kAlexNetKo},
        {"alexnet_parameters", "60 million", "6,000만 개", kAlexNet, kAlexNetKo},
        {"alexnet_gpus", "two GTX 580 3 GB", "GTX 580 3 GB 두 장", kAlexNet, kAlexNetKo},
        {"alexnet_training_days", "five to six days", "5~6일", kAlexNet, kAlexNetKo},
        {"alexnet_fc_layer", "9216 → 4096", "9216 → 4096", kAlexNet, kAlexNetKo},
        {"cuda_announced", "November 2006", "2006년 11월", kCuda, kCudaKo},
        {"cuda_released", "June 2007", "2007년 6월", kCuda, kCudaKo},
        {"gpt3_gpus", "10,000", "1만 개",
         "GPT-3: Brown et al. 2020 (V100s on a Microsoft cluster); Microsoft, May 2020 (that supercomputer: 10,000 GPUs)",
         "GPT-3: Brown 외 2020 논문(Microsoft 클러스터의 V100), Microsoft 2020년 5월 발표(그 슈퍼컴퓨터: GPU 1만 개)"},
        {"gpt4_gpus", "about 25,000 A100s, reportedly", "A100 약 2만 5천 개(보도된 수치)",
         "GPT-4: SemiAnalysis, July 2023 (not confirmed by OpenAI)",
         "GPT-4: SemiAnalysis 2023년 7월 보도(OpenAI 미확인)"},
        {"llama3_training", "Llama 3 on 16,000 H100s", "Llama 3는 H100 1만 6천 개로", "Llama 3: Meta, \"The Llama 3 Herd of Models\", 2024",
         "Llama 3: Meta, \"The Llama 3 Herd of Models\" 2024 논문"},
        {"colossus_gpus", "100,000 H100s", "H100 10만 개", "xAI Colossus: xAI, September 2024",
         "xAI Colossus: xAI 2024년 9월 발표"},
    };
    return table;
}

const Fact* find_fact(std::string_view caption_key) {
    constexpr std::string_view prefix = "fact.";
    if (caption_key.substr(0, prefix.size()) != prefix) return nullptr;
    const std::string_view name = caption_key.substr(prefix.size());
    const auto& table = facts();
    const auto it = std::find_if(table.begin(), table.end(), [&](const Fact& f) { return f.key == name; });
    return it == table.end() ? nullptr : &*it;
}

std::optional<std::string> fact_value(std::string_view caption_key, Language lang) {
    const Fact* f = find_fact(caption_key);
    if (!f) return std::nullopt;
    return std::string(lang == Language::ko ? f->korean : f->english);
}

std::string fact_sources(std::string_view caption, Language lang) {
    std::vector<std::string_view> sources;
    for (const std::string& key : caption_placeholders(caption)) {
        const Fact* f = find_fact(key);
        if (!f) continue;
        const std::string_view source = lang == Language::ko && !f->source_ko.empty() ? f->source_ko : f->source;
        if (std::find(sources.begin(), sources.end(), source) == sources.end()) sources.push_back(source);
    }
    if (sources.empty()) return {};
    std::string out = tr(sources.size() == 1 ? "caption.source" : "caption.sources", lang);
    out += ' ';
    for (std::size_t i = 0; i < sources.size(); ++i) {
        if (i) out += "; ";
        out += sources[i];
    }
    return out;
}

}  // namespace ws::lesson
