#include "window_run.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include <stb_image.h>

#include "run_binary.hpp"

namespace ws::test_support {

nlohmann::json printed_state(const std::string& output) {
  const auto brace = output.rfind("\n{");
  auto state = nlohmann::json::parse(output.substr(brace == std::string::npos ? 0 : brace + 1), nullptr, false);
  // A drawn text as a test reads it, one line ("1 thread" stays two words wherever the app broke
  // the line), and as drawn, with the app's line breaks, under "as_drawn".
  if (state.is_object() && state.contains("clipped_text") && state["clipped_text"].contains("drawn"))
    for (auto& d : state["clipped_text"]["drawn"]) {
      std::string text = d["text"];
      d["as_drawn"] = text;
      std::replace(text.begin(), text.end(), '\n', ' ');
      d["text"] = text;
    }
  return state;
}

WindowRun run_window(const std::string& name, const std::string& args, const WindowOptions& options) {
  WindowRun run;
  // The test's name keeps tests that share a run name apart: ctest runs GUI tests side by side.
  std::string file = name;
  if (const auto* test = ::testing::UnitTest::GetInstance()->current_test_info())
    file += std::string("-") + test->test_suite_name() + "." + test->name();
  const std::string png = std::string(TEST_OUT_DIR) + "/" + file + ".png";
  std::remove(png.c_str());
  std::string env;
  if (!options.home.empty()) {
    std::filesystem::create_directories(options.home);
    env += "HOME=" + options.home + " XDG_CONFIG_HOME=" + options.home + "/.config ";
  }
  if (!options.env.empty()) env += options.env + " ";
  const auto r = run_command(env + WARPSCOPE_BIN + " --screenshot " + png + " " + args);
  run.exit_code = r.exit_code;
  run.output = r.output;
  run.state = printed_state(r.output);
  int channels = 0;
  if (unsigned char* data = stbi_load(png.c_str(), &run.w, &run.h, &channels, 4)) {
    run.rgba.assign(data, data + static_cast<std::size_t>(run.w) * run.h * 4);
    stbi_image_free(data);
  }
  return run;
}

}  // namespace ws::test_support
