// How partial steps become the full app state: the "anything left out stays as it was" rule.
#include "lesson.hpp"

#include <algorithm>

namespace ws::lesson {

namespace {
template <class T>
void take(const std::optional<T>& from, T& to) {
    if (from) to = *from;
}
}  // namespace

void apply_step(const Step& step, AppliedState& s) {
    // Title and caption belong to the step: carrying the previous one over would show stale text.
    s.title = step.title.value_or(std::string{});
    s.caption = step.caption.value_or(std::string{});
    s.caption_no_gpu = step.caption_no_gpu.value_or(std::string{});
    take(step.gpu_preset, s.gpu_preset);
    take(step.cpu_preset, s.cpu_preset);
    take(step.m, s.m);
    take(step.n, s.n);
    take(step.k, s.k);
    take(step.kernel, s.kernel);
    take(step.block_size, s.block_size);
    take(step.cpu_kernel, s.cpu_kernel);
    take(step.gpu_kernel, s.gpu_kernel);
    take(step.real_m, s.real_m);
    take(step.real_n, s.real_n);
    take(step.real_k, s.real_k);
    take(step.threads, s.threads);
    take(step.zoom, s.zoom);
    take(step.highlight, s.highlight);
    take(step.panels, s.panels);
    take(step.cycle, s.cycle);
    take(step.play, s.play);
    take(step.speed, s.speed);
    if (step.cluster) {
        take(step.cluster->strategy, s.cluster.strategy);
        take(step.cluster->gpus, s.cluster.gpus);
        take(step.cluster->nodes, s.cluster.nodes);
        take(step.cluster->micro_batches, s.cluster.micro_batches);
        take(step.cluster->size, s.cluster.size);
        take(step.cluster->curve, s.cluster.curve);
    }
    // A real run is an action: re-entering later steps must not start it again.
    s.real_run = step.real_run.value_or(false);
    // An expectation describes this step's picture; a later step's picture is another one.
    s.expect = step.expect.value_or(std::vector<Expectation>{});
}

AppliedState state_at(const Lesson& lesson, std::size_t step, const AppliedState& initial) {
    AppliedState s = initial;
    s.real_run = false;
    if (lesson.steps.empty()) return s;
    const std::size_t last = std::min(step, lesson.steps.size() - 1);
    for (std::size_t i = 0; i <= last; ++i) apply_step(lesson.steps[i], s);
    return s;
}

}  // namespace ws::lesson
