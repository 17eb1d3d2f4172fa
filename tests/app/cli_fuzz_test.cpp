// The command line under random input: a few hundred seeded argument vectors built from the real
// vocabulary (every subcommand, its options, values that are valid, invalid, huge, negative or
// empty, junk tokens) run the real binary. Whatever comes in, it must not crash, must exit 0, 1
// or 2, and an exit 2 must say why on stderr. Every vector starts with a subcommand, --help or
// --version, and valid sizes are tiny, so no vector opens the window or starts long work.
#include <array>
#include <chrono>
#include <map>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "cli_input_run.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

using Pool = std::vector<std::string>;

struct Option {
  std::string name;
  Pool values;     // empty: a flag
  int valid = 0;   // the first `valid` values are accepted ones, picked five times in six
};

class Generator {
 public:
  Generator(std::uint32_t seed, const fs::path& scratch) : rng_(seed) {
    const std::string lessons = std::string(WARPSCOPE_ASSETS_DIR) + "/lessons/";
    const fs::path fifo = scratch / "fifo.toml";
    ::mkfifo(fifo.c_str(), 0600);
    const fs::path broken = scratch / "broken.toml";
    std::ofstream(broken) << "title = \"x\"\n[[step]]\nm = -1\nzoom = \"lane:\n";
    const fs::path big = scratch / "big.toml";
    std::ofstream(big, std::ios::binary) << std::string(1024 * 1024 + 1, '#');
    files_ = {lessons + "gpu-story.en.toml", lessons + "gpu-story.ko.toml", "/dev/urandom", "/dev/null", "/dev/zero",
              fifo.string(), broken.string(), big.string(), scratch.string(), (scratch / "missing.toml").string(), "",
              "-", std::string(5000, 'a') + ".toml", "\xff\xfe.toml"};
    out_dirs_ = {(scratch / "out").string(), "", "/dev/null/x", "/proc/self/nope", scratch.string()};
  }

  std::vector<std::string> next() {
    std::vector<std::string> v;
    switch (pick(16)) {
      case 0: v = {one_of({"--help", "--version", "-h"})}; break;
      case 1: case 2: case 3: bench(v); break;
      case 4: v = {"presets"}; maybe(v, {Option{"--json", {}}}); break;
      case 5: case 6: case 7: occupancy(v); break;
      case 8: case 9: case 10: simulate(v); break;
      case 11: case 12: lesson_check(v); break;
      case 13: case 14: lesson_export(v); break;
      default: v = {"lesson"}; if (pick(2)) v.push_back("list"); break;
    }
    // Junk after the first token: never a subcommand name, never --screenshot.
    const int junk = pick(6) == 0 ? 1 + pick(3) : 0;
    for (int j = 0; j < junk; ++j) v.insert(v.begin() + 1 + pick(static_cast<int>(v.size())), junk_token());
    if (pick(20) == 0) v.insert(v.begin() + 1 + pick(static_cast<int>(v.size())), one_of({"--help", "--version"}));
    if (v.size() > 1 && pick(12) == 0) v.pop_back();  // a value or an argument missing
    return v;
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  std::string one_of(const Pool& p) { return p[static_cast<std::size_t>(pick(static_cast<int>(p.size())))]; }

  // Adds each option with probability 1/2, in random order.
  void maybe(std::vector<std::string>& v, std::vector<Option> options) {
    std::shuffle(options.begin(), options.end(), rng_);
    for (const auto& o : options) {
      if (pick(2)) continue;
      add(v, o);
    }
  }
  void add(std::vector<std::string>& v, const Option& o) {
    if (o.values.empty()) {
      v.push_back(o.name);
      return;
    }
    // Mostly valid values, so that vectors get past the parser into the commands themselves.
    const std::string value = o.valid > 0 && pick(6) != 0 ? o.values[static_cast<std::size_t>(pick(o.valid))]
                                                            : one_of(o.values);
    if (pick(8) == 0) {
      v.push_back(o.name + "=" + value);
    } else {
      v.push_back(o.name);
      v.push_back(value);
    }
  }

  std::string junk_token() {
    static const Pool junk{"", "-", "--", "---", "-x", "--nope", "=", "--size=", "--=1", "%s%n%x", "\xff\xfe",
                           "\xed\xa0\x80", std::string(4096, 'z'), "-1", "0", "1e308", "NaN", "\"", "'", "\\",
                           "--json", "--regs", "--cc", "--out", "--lang", "check", "export", "list"};
    return one_of(junk);
  }

  // Valid sizes are tiny so that a vector that parses runs in milliseconds.
  void bench(std::vector<std::string>& v) {
    static const Pool dims{"1", "2", "7", "33", "64", "0", "-1", "", "abc", "16385", "99999999999999999999", "1e9",
                           "1.5", "0x10", "-0"};
    v = {"bench"};
    add(v, {"--size", dims, 5});  // always: without it bench would default to 1024
    if (pick(3) == 0) add(v, {"--repeats", {"1", "0", "-1", "", "x", "99999999999"}, 1});
    else v.insert(v.end(), {"--repeats", "1"});
    maybe(v, {{"--m", dims, 5},
              {"--n", dims, 5},
              {"--k", dims, 5},
              {"--threads", {"0", "1", "2", "-1", "1025", "99999999", "x", ""}, 3},
              {"--kernels",
               {"cpu-naive", "cpu-parallel", "cpu-blas", "cpu-naive,cpu-blas", "gl-naive", "gl-tiled", "cuda-tiled",
                "cublas", "all", "", ",", "cpu-naive,,", "nope", "CPU-NAIVE"},
               9},
              {"--json", {}}});
  }

  void occupancy(std::vector<std::string>& v) {
    v = {"occupancy"};
    // --block-size, --regs and --smem are required and --cc excludes --preset: mostly keep to
    // that, so the calculator itself runs, and sometimes break it.
    const int which = pick(8);
    if (which < 4) add(v, cc_option());
    else if (which < 7) add(v, preset_option());
    else if (pick(2)) { add(v, cc_option()); add(v, preset_option()); }
    for (const Option& o : {Option{"--block-size", {"1", "32", "256", "1024", "1025", "1048576", "1048577", "0", "-1", "x", ""}, 6},
                            Option{"--regs", {"0", "32", "255", "256", "100000", "100001", "-1", "x"}, 5},
                            Option{"--smem", {"0", "49152", "232448", "1073741824", "1073741825", "-1", "x"}, 4}})
      if (pick(10) != 0) add(v, o);
    if (pick(2)) v.push_back("--json");
  }

  Option cc_option() {
    return {"--cc", {"8.6", "9.0", "1.3", "12.1", "1.0", "8.5", "", "x", "9", ".9", "9.", "-1.0", "99999999999.0",
                        "2147483647.2147483647", "8.6.1", " 8.6", "+8.6"}, 4};
  }
  Option preset_option() {
    return {"--preset", {"h100", "c1060", "gtx580", "k80", "b200", "rtx4090", "H100", "voodoo2", ""}, 7};
  }

  void simulate(std::vector<std::string>& v) {
    static const Pool dims{"1", "8", "17", "32", "0", "-5", "65537", "x", "", "99999999999"};
    v = {"simulate"};
    // Tiny or invalid only: a valid large size would simulate for seconds.
    const int size_kind = pick(4);
    if (size_kind <= 1) add(v, {"--size", dims, 4});
    if (size_kind == 2)
      for (const char* d : {"--m", "--n", "--k"})
        if (pick(10) != 0) add(v, {d, dims, 4});
    if (pick(4) != 0) add(v, {"--kernel", {"naive", "tiled", "", "bogus", "NAIVE"}, 2});  // required
    maybe(v, {{"--preset", {"h100", "c1060", "gtx580", "k80", "v100", "voodoo2", ""}, 5},
              {"--cpu", {"i7-3960x", "this-machine", "host", "epyc-64", "", "nope"}, 4},
              {"--block", {"1", "8", "16", "32", "0", "33", "x"}, 4},
              {"--regs", {"1", "32", "255", "0", "256", "-1"}, 3},
              {"--seed", {"0", "42", "18446744073709551615", "-1", "18446744073709551616", "x"}, 3},
              {"--json", {}}});
  }

  void lesson_check(std::vector<std::string>& v) {
    v = {"lesson", "check"};
    const int n = pick(4);
    for (int i = 0; i < n; ++i) v.push_back(one_of(files_));
  }

  void lesson_export(std::vector<std::string>& v) {
    v = {"lesson", "export"};
    if (pick(6)) v.push_back(one_of(files_));
    if (pick(4) != 0) add(v, {"--out", out_dirs_, 1});  // required
    maybe(v, {{"--lang", {"en", "ko", "fr", ""}, 2},
              {"--window", {"1600x900", "320x240", "12", "0x0", "99999x99999", "x", "", "-1x-1"}, 2}});
  }

  std::mt19937 rng_;
  Pool files_, out_dirs_;
};

std::string show(const std::vector<std::string>& v) {
  std::string s = "warpscope";
  for (const auto& a : v) s += " '" + (a.size() > 60 ? a.substr(0, 60) + "..." : a) + "'";
  return s;
}

}  // namespace

TEST(CliFuzz, RandomArgumentVectorsNeverCrashAndExplainExit2) {
  const fs::path scratch = fs::temp_directory_path() / ("warpscope-cli-fuzz-" + std::to_string(::getpid()));
  fs::remove_all(scratch);
  fs::create_directories(scratch / "cfg");
  Generator gen(20250611u, scratch);
  int counts[3] = {0, 0, 0};
  std::map<std::string, std::array<int, 3>> by_command;
  constexpr int kVectors = 400;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kVectors; ++i) {
    const std::vector<std::string> args = gen.next();
    SCOPED_TRACE(std::to_string(i) + ": " + show(args));
    const auto r = ws::test::run_cli(WARPSCOPE_BIN, args, (scratch / "cfg").string(), 30s);
    ASSERT_FALSE(r.timed_out) << "did not return within 30 s";
    ASSERT_EQ(r.signal, 0) << "killed by signal " << r.signal << "\nstderr: " << r.err;
    ASSERT_TRUE(r.exit_code >= 0 && r.exit_code <= 2) << "exit " << r.exit_code << "\nstderr: " << r.err;
    if (r.exit_code == 2) {
      ASSERT_FALSE(r.err.empty()) << "exit 2 without a word on stderr; stdout: " << r.out;
    }
    ++counts[r.exit_code];
    const bool lesson_sub = args[0] == "lesson" && args.size() > 1 &&
                            (args[1] == "check" || args[1] == "export" || args[1] == "list");
    ++by_command[lesson_sub ? "lesson " + args[1] : args[0]][r.exit_code];
  }
  fs::remove_all(scratch);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("exit 0: %d, exit 1: %d, exit 2: %d in %.1f s\n", counts[0], counts[1], counts[2], seconds);
  for (const auto& [command, c] : by_command) std::printf("  %-16s %4d %4d %4d\n", command.c_str(), c[0], c[1], c[2]);
  // The vectors must reach real work as well as the error paths, or the test only tests CLI11.
  EXPECT_GT(counts[0], kVectors / 5);
  EXPECT_GT(counts[2], kVectors / 4);
}
