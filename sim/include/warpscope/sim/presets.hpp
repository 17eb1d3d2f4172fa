// Hardware presets: the named GPUs and CPUs the simulator can model, loaded from the data files in
// assets/presets/{gpus,cpus}/*.toml, plus "this machine" presets built from live facts.
// Every datasheet number in a file carries its source; the model constants (latencies, cache
// sizes) carry theirs in the file's [model] table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ws::sim {

// Cycle counts at the preset's SM clock; approximate figures from microbenchmark papers.
struct GpuLatencies {
  int fma = 4;           // dependent FFMA to FFMA
  int alu = 4;           // integer / address arithmetic
  int shared = 25;       // LDS/STS round trip, no bank conflict
  int l1_hit = 33;       // global load that hits L1
  int l2_hit = 200;      // global load that misses L1 and hits L2
  int dram = 500;        // global load that goes to DRAM (unloaded)
  int barrier = 20;      // last warp arrives at __syncthreads -> the block may issue again
  int block_launch = 50; // block assigned to an SM -> its warps may issue
};

// One number format on the tensor cores: how many FLOP one tensor core does per clock, dense
// (no 2:4 sparsity) with FP32 accumulate, and the vendor figure that rate must reproduce.
struct TensorFormat {
  int flops_per_clock_per_core = 0;  // 0: the tensor cores do not run this format
  double datasheet_tflops = 0;       // dense, from `source`
  std::string source;                // where datasheet_tflops comes from
  bool supported() const { return flops_per_clock_per_core > 0; }
};

// The tensor cores of a GPU as parts (Volta and later); cores_per_sm == 0: none. The peak of a
// format is SMs x cores_per_sm x flops_per_clock_per_core x clock_mhz.
struct TensorCores {
  int generation = 0;       // NVIDIA's tensor-core generation: Volta 1, Turing 2, Ampere 3, Hopper/Ada 4, Blackwell 5
  int cores_per_sm = 0;
  double clock_mhz = 0;     // the clock the datasheet tensor figures are quoted at (may be below the FP32 boost clock)
  TensorFormat fp16;        // FP16 inputs, FP32 accumulate
  TensorFormat bf16;        // BF16 inputs, FP32 accumulate (Ampere and later)
  TensorFormat tf32;        // TF32 inputs, FP32 accumulate (Ampere and later)
  std::string source;       // where cores_per_sm, generation, the per-clock rates and clock_mhz come from
};

// How a GPU reaches others (the cluster model, docs/CLUSTER.md): ids of links.toml entries.
// Empty ids: the preset file has no [interconnect] table (a GPU built from a live device).
struct GpuInterconnect {
  std::string link;     // GPU to GPU inside a node: NVLink where the part has it, else its PCIe slot
  std::string pcie;     // its host slot, the intra-node link a user may pick instead
  std::string network;  // the NIC between nodes, one per GPU
  std::string source;
};

struct GpuPreset {
  std::string id;              // short name for the CLI: "h100"
  std::string name;            // full label for tables and menus: "H100 (SXM5, 80 GB)"
  // The label in Korean where `name` has English words in it ("(the AlexNet GPU)"); "" when it
  // has none and reads the same in either language.
  std::string name_ko;
  // What a sentence calls the part ("H100", "GTX 580"): no parenthesised detail, so a caption can
  // put a particle or a year after it. "" in a file means the label is already short.
  std::string short_name;
  std::string reference_name;  // row name in shared/reference/gpus.csv, "" when none
  std::string sentence_name() const { return short_name.empty() ? name : short_name; }
  std::string architecture;
  int year = 0;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int fp32_lanes_per_sm = 0;
  int schedulers_per_sm = 0;
  double clock_mhz = 0;            // the clock the FP32 peak is quoted at (shader/boost clock)
  double memory_bandwidth_gbs = 0;
  double memory_gb = 0;
  int l2_kb = 0;                   // 0: no L2 for global data (GT200)
  double l2_bandwidth_gbs = 0;     // model constant: L2 -> SM bandwidth
  int l1_kb = 0;                   // L1 able to hold global data per SM (0: global loads bypass L1)
  bool l1_shares_smem = false;     // Volta+: L1 is what the shared-memory carveout leaves
  int lsu_cycles_per_wavefront = 1;   // per 128-byte line a warp's global access touches
  int smem_cycles_per_wavefront = 1;  // per conflict-free shared-memory wavefront
  double datasheet_fp32_tflops = 0;   // what the vendor/reference table says, to check peak()
  TensorCores tensor;                 // cores_per_sm == 0: no tensor cores (before Volta)
  GpuLatencies latency;
  GpuInterconnect interconnect;
  std::string source;                 // where the datasheet numbers come from
  std::string model_source;           // where the latencies and model constants come from
  std::vector<std::string> uncertain; // fields whose value is disputed or estimated
  std::string notes;
  bool from_device = false;           // built from a live device, not a file

  // SMs x FP32 lanes x 2 (FMA) x clock, in GFLOP/s.
  double peak_gflops() const { return sm_count * fp32_lanes_per_sm * 2.0 * clock_mhz * 1e-3; }
  bool has_tensor_cores() const { return tensor.cores_per_sm > 0; }
  // SMs x tensor cores per SM x FLOP per clock per core x tensor clock, in GFLOP/s; 0 when the
  // format does not run on this GPU's tensor cores.
  double tensor_peak_gflops(const TensorFormat& f) const {
    if (!has_tensor_cores() || !f.supported()) return 0;
    return static_cast<double>(sm_count) * tensor.cores_per_sm * f.flops_per_clock_per_core * tensor.clock_mhz * 1e-3;
  }
  // The figure a caption quotes: BF16 where the tensor cores have it (what training uses), else
  // FP16 (Volta); nullptr without tensor cores. tensor_headline_format() names it ("" when none).
  const TensorFormat* tensor_headline() const {
    if (!has_tensor_cores()) return nullptr;
    if (tensor.bf16.supported()) return &tensor.bf16;
    if (tensor.fp16.supported()) return &tensor.fp16;
    return nullptr;
  }
  std::string tensor_headline_format() const {
    const TensorFormat* f = tensor_headline();
    if (f == nullptr) return "";
    return f == &tensor.bf16 ? "BF16" : "FP16";
  }
  double dram_bytes_per_cycle() const { return memory_bandwidth_gbs * 1e3 / clock_mhz; }
  std::string cc_string() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }
};

// The fewest fills per L1 set this machine's probe may report (l1_fills_per_set,
// l1_fills_two_sets): a miss then holds its set for 4 of its latencies. Only a broken
// measurement would go further (a Zen 5 measured 0.65-0.75).
inline constexpr double kMinL1FillsPerSet = 0.25;

struct CpuPreset {
  std::string id;
  std::string name;            // full label: "AMD EPYC 9754 (128 cores)"
  std::string name_ko;         // in Korean where `name` has English words (see GpuPreset::name_ko)
  std::string short_name;      // for sentences: "AMD EPYC 9754" (see GpuPreset::short_name)
  std::string reference_name;  // row name in shared/reference/cpus.csv
  std::string sentence_name() const { return short_name.empty() ? name : short_name; }
  std::string microarchitecture;
  int year = 0;
  int cores = 0;
  int threads = 0;
  double base_clock_ghz = 0;
  double boost_clock_ghz = 0;
  std::string simd_isa;
  int fp32_lanes = 0;       // per vector op
  int fma_units = 0;        // FMA-equivalent pipes per core (an add pipe + a mul pipe count as one)
  double memory_bandwidth_gbs = 0;
  int l1d_kb = 32, l2_kb = 1024;
  int l1d_ways = 8;  // the model's L1d associativity (this machine: sysfs; 48 KB Intel L1d: 12)
  double l3_mb = 0;
  double datasheet_peak_gflops_base = 0;  // reference table, at base clock
  // Model constants, core cycles.
  int fma_latency = 4;
  int l1_latency = 5, l2_latency = 14, l3_latency = 45, dram_latency = 250;
  double miss_overlap = 4.0;  // misses an out-of-order core and its stride prefetcher overlap
  // Measured on this machine only (this_machine.cpp; 0 = not modelled, as in every named preset):
  // L1 misses one L1 set keeps in flight, each holding its slot for its load-to-use latency (a
  // column of B at a 4 KB stride falls into a single L1 set; below 1 where independent misses
  // into one set are slower than a chase, as on a Zen 5), and the load-to-use latency of a
  // constant-stride walk that crosses a page every load (the stride prefetcher's work, TLB
  // included), which caps what an L1 miss of B's column walk costs.
  double l1_fills_per_set = 0;
  // The same when a walk's misses alternate between two L1 sets (rows 2 KB apart): measured, as
  // two sets serve fewer than twice one set's misses (1.4x on Zen 4); 0: twice l1_fills_per_set.
  double l1_fills_two_sets = 0;
  double stride_walk_latency = 0;
  std::string source;
  std::string model_source;
  std::vector<std::string> uncertain;
  std::string notes;
  bool from_machine = false;

  // cores x lanes x FMA units x 2 x base clock, in GFLOP/s.
  double peak_gflops() const { return cores * fp32_lanes * fma_units * 2.0 * base_clock_ghz; }
};

struct UnknownPreset : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Where the preset files are: $WARPSCOPE_ASSETS/presets, else WARPSCOPE_ASSETS_DIR/presets.
std::string presets_dir();

// All named presets, sorted by year then id. Loaded once; throws std::runtime_error on a bad file.
const std::vector<GpuPreset>& gpu_presets();
const std::vector<CpuPreset>& cpu_presets();

// Lookup by id or display name, case-insensitive. "this-machine" / "host" for the CPU gives
// this_machine_cpu(). Throws UnknownPreset whose message lists the valid names.
const GpuPreset& find_gpu(const std::string& name);
CpuPreset find_cpu(const std::string& name);
std::vector<std::string> gpu_ids();
std::vector<std::string> cpu_ids();

// A preset file is a page of TOML; a larger file (or a FIFO, device or directory) is refused
// before it is read.
inline constexpr std::size_t kMaxPresetBytes = 1024 * 1024;

// Loads one file (exposed for tests and for user-supplied presets). Throws std::runtime_error
// whose message starts with the path.
GpuPreset load_gpu_preset(const std::string& path);
CpuPreset load_cpu_preset(const std::string& path);
// The same from the text of a preset file; `path` only names it in errors.
GpuPreset parse_gpu_preset(std::string_view text, const std::string& path);
CpuPreset parse_cpu_preset(std::string_view text, const std::string& path);

// The CPU this process runs on: cores, SIMD width from CPUID, caches from sysfs, and the clock and
// two memory figures measured by probe_this_cpu() (built once per process).
const CpuPreset& this_machine_cpu();

// What this_machine_cpu() measures on the live core, once (a few milliseconds; docs/SIMULATION.md,
// "The CPU model against this machine"). Fields are 0 where nothing was measured.
struct CpuProbe {
  double imul_ns = 0;         // per 64-bit IMUL of a dependent chain (3 cycles on the cores tabled)
  double fadd_ns = 0;         // per scalar ADDSS of a dependent chain (cpu-naive's chain), 0: not run
  double stride_walk_ns = 0;  // per load of an in-order pointer chase over 1024 lines 4 KB apart
  double one_set_ns = 0;      // per load of the same lines in the same order, loads independent
  double two_sets_ns = 0;     // per load of independent loads 2 KB apart (two L1 sets), same lines count
};
CpuProbe probe_this_cpu();

// Everything this_machine_cpu() reads, so a test can build the preset of a machine it describes.
struct MachineFacts {
  std::string cpuinfo;               // text of /proc/cpuinfo
  double cpufreq_max_khz = 0;        // cpu0's cpuinfo_max_freq, 0 without cpufreq (VMs)
  long l1d_kib = 0, l2_kib = 0, l3_kib = 0;  // sysfs cache sizes, 0 where unknown
  int l1d_ways = 0;                          // sysfs ways_of_associativity of L1d, 0 where unknown
  int hardware_threads = 1;
  std::string simd_isa = "SSE2";
  int fp32_lanes = 4, fma_units = 1;
  std::string simd_source;  // who said so: empty for sim's own __builtin_cpu_supports guess
  CpuProbe probe;
};

// The SIMD facts the real kernels go by (kernels/ reads CPUID and XGETBV and keeps a table of FMA
// units per core); sim cannot include kernels/, so the app passes them in before anything asks
// for this_machine_cpu(). Without them sim guesses from __builtin_cpu_supports.
struct SimdFacts {
  std::string isa;         // "AVX-512 + FMA", "AVX2 + FMA", ...
  int fp32_lanes = 0;      // 16 with usable AVX-512, 8 with AVX, 4 with SSE
  int fma_units = 0;       // vector FMAs issued per cycle
  std::string source;      // for the preset's source line
};
// Takes effect only before the first this_machine_cpu() call (the preset is built once).
void provide_this_machine_simd(const SimdFacts& facts);
MachineFacts this_machine_facts();  // reads the files and CPUID and runs probe_this_cpu()
CpuPreset cpu_preset_from(const MachineFacts& facts);

// Plain facts about a live GPU (filled by the app from cudaGetDeviceProperties; sim has no CUDA).
struct DeviceFacts {
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  double clock_mhz = 0;              // SM clock
  double memory_bandwidth_gbs = 0;   // 0 if unknown
  double memory_gb = 0;
  int l2_bytes = 0;
};

// The named preset when the name, compute capability and SM count fit one; otherwise a preset
// built from the facts with per-architecture defaults for lanes, schedulers and latencies.
GpuPreset preset_from_device(const DeviceFacts& facts);

// FP32 lanes and warp schedulers per SM for a compute capability (CUDA Programming Guide tables).
int fp32_lanes_per_sm_for_cc(int major, int minor);
int schedulers_per_sm_for_cc(int major, int minor);

}  // namespace ws::sim
