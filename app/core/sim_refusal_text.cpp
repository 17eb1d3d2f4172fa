#include "core/sim_refusal_text.hpp"

#include <vector>

#include "core/english_forms.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::app {

namespace {

// sim/src/occupancy.cpp's reasons.
const std::vector<EnglishForm>& occupancy_forms() {
  static const std::vector<EnglishForm> forms = english_forms({
      {R"(block of (\d+) threads exceeds the maximum of (\d+) per block)", "occupancy.block_threads"},
      {R"((\d+) registers per thread exceed the maximum of (\d+))", "occupancy.thread_registers"},
      {R"(the block needs (\d+) registers \(after allocation rounding\), more than the (\d+) a block may have)",
       "occupancy.block_registers"},
      {R"(the block needs (\d+) bytes of shared memory \(with rounding and driver reserve\), more than the (\d+) a block may have)",
       "occupancy.block_shared"},
      {R"(no block fits)", "occupancy.no_block_fits"},
  });
  return forms;
}

// What follows "refused: " (sim/src/simulation.cpp's estimate) or stands alone (a tensor program
// on a preset without BF16 tensor cores, sim/src/gpu_model.cpp).
const std::vector<EnglishForm>& refusal_forms() {
  static const std::vector<EnglishForm> forms = english_forms({
      {R"(about (\S+) warp instructions, ~(\d+) min of simulating on one core, more than the (\d+)-minute limit; try a smaller size)",
       "sim_refusal.too_long"},
      {R"(needs about (\S+) GB of memory \(limit 8 GB\))", "sim_refusal.too_big"},
      // A run or a seek's replay that failed (sim/src/simulation.cpp's stopped_because).
      {R"(ran out of memory at cycle (\d+); try a smaller size)", "sim_refusal.out_of_memory"},
      {R"(ran out of memory building the launch; try a smaller size)", "sim_refusal.out_of_memory_building"},
      {R"(could not start a thread for the simulation: (.+))", "sim_refusal.no_thread"},
      // sim/src/simulation.cpp's resolve_block: the register-blocked and tensor programs are
      // written for one block side.
      {R"((\w+) needs a block side of (\d+))", "sim_refusal.block_side"},
      {R"(the tensor model multiplies BF16 on tensor cores, and (.+) has no tensor cores; presets that have them: (.+))",
       "sim_refusal.no_tensor_cores"},
      {R"(the tensor model multiplies BF16 on tensor cores, and (.+) has tensor cores without BF16 \(FP16 only\); presets that have them: (.+))",
       "sim_refusal.no_bf16"},
  });
  return forms;
}

// sim/src/cluster.cpp's checks of a split: the ones the cluster view's controls can reach and the
// rest, which the CLI's flags can.
const std::vector<EnglishForm>& cluster_forms() {
  static const std::vector<EnglishForm> forms = english_forms({
      {R"(the multiply's m, n and k must be at least 1)", "cluster_refusal.gemm_positive"},
      {R"(data split: m must divide by the (\d+) GPUs)", "cluster_refusal.gemm_data"},
      {R"(tensor split: k must divide by the (\d+) GPUs)", "cluster_refusal.gemm_tensor"},
      {R"(hybrid split: m must divide by the nodes and k by the GPUs per node)", "cluster_refusal.gemm_hybrid"},
      {R"(batch, width and hidden must be at least 1)", "cluster_refusal.mlp_positive"},
      {R"(layers must be 1\.\.256)", "cluster_refusal.layers_range"},
      {R"(data split: the batch \((\d+)\) must divide by the (\d+) GPUs)", "cluster_refusal.data_batch"},
      {R"(tensor split pairs a column-split layer with a row-split one: layers must be even)",
       "cluster_refusal.tensor_even"},
      {R"(tensor split: hidden \((\d+)\) must divide by the (\d+) GPUs)", "cluster_refusal.tensor_hidden"},
      {R"(pipeline: the (\d+) layers must divide into (\d+) stages \(one stage a GPU; give --layers a multiple of the GPUs\))",
       "cluster_refusal.pipeline_layers"},
      {R"(micro-batches must be 1\.\.1024)", "cluster_refusal.micro_range"},
      {R"(pipeline: the batch must divide into the (\d+) micro-batches)", "cluster_refusal.pipeline_batch"},
      {R"(hybrid uses the tensor split inside a node: layers must be even)", "cluster_refusal.hybrid_even"},
      {R"(hybrid: hidden must divide by the (\d+) GPUs per node)", "cluster_refusal.hybrid_hidden"},
      {R"(hybrid: the batch must divide by the (\d+) nodes)", "cluster_refusal.hybrid_batch"},
      {R"(gpus must be 1\.\.64, got (-?\d+))", "cluster_refusal.gpus_range"},
      {R"(nodes must divide the (\d+) GPUs into nodes of at most 8, got (-?\d+))", "cluster_refusal.nodes"},
      {R"(preset '(.+)' has no \[interconnect\] table: no links to model)", "cluster_refusal.no_links"},
  });
  return forms;
}

// A preset's full name ("GeForce GTX 580 (the AlexNet GPU)") by its short one in Korean; any
// other value as it is.
std::string preset_words(const std::string& value) {
  for (const sim::GpuPreset& p : sim::gpu_presets())
    if (p.name == value) return p.sentence_name();
  return value;
}

}  // namespace

std::string occupancy_reason_words(const std::string& reason, lesson::Language lang) {
  return reword_or_keep(reason, occupancy_forms(), lang);
}

std::string cluster_refusal_words(const std::string& text, lesson::Language lang) {
  return reword_or_keep(text, cluster_forms(), lang);
}

std::string sim_refusal_words(const std::string& text, lesson::Language lang) {
  if (lang == lesson::Language::en) return text;
  static const std::regex launch(R"(the launch cannot run on (.+): (.+))");
  static const std::string refused = "refused: ";
  std::smatch m;
  if (std::regex_match(text, m, launch))
    return lesson::trf("sim_refusal.launch", lang, preset_words(m[1].str()), occupancy_reason_words(m[2].str(), lang));
  const bool prefixed = text.rfind(refused, 0) == 0;
  const std::string why = prefixed ? text.substr(refused.size()) : text;
  const auto words = reword(why, refusal_forms(), lang, preset_words);
  if (!words) return text;
  return prefixed ? lesson::trf("sim_refusal.refused", lang, *words) : *words;
}

}  // namespace ws::app
