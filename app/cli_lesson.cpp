// `warpscope lesson check|export|list`: lecture-mode lessons without opening a window (export
// renders headless through run_gui). The names a lesson may use come from the live registries,
// so a lesson is checked against exactly what this build can show.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli_commands.hpp"
#include "core/assets.hpp"
#include "core/lesson_vocabulary.hpp"
#include "gui_options.hpp"
#include "lesson/lesson.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/sim/presets.hpp"
#include "warpscope/sim/simulation.hpp"


namespace ws::app {
namespace {

namespace fs = std::filesystem;

// The registries' names, or nullopt after reporting a broken preset file (exit 1).
std::optional<lesson::Vocabulary> vocabulary_or_report(int& exit_code) {
  try {
    return registry_vocabulary();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warpscope: %s\n", e.what());
    exit_code = 1;
    return std::nullopt;
  }
}

// Prints every diagnostic on stderr; returns the parse result for the caller to judge.
lesson::ParseResult check_file(const std::string& file, const lesson::Vocabulary& vocab) {
  lesson::ParseResult r = lesson::load_lesson_file(file, vocab);
  for (const auto& d : r.diagnostics) std::fprintf(stderr, "%s\n", lesson::format(d).c_str());
  return r;
}

std::string ok_line(const std::string& file, const lesson::ParseResult& r) {
  std::string line = fmt::format("{}: ok, {} step{}", file, r.lesson->steps.size(), r.lesson->steps.size() == 1 ? "" : "s");
  if (const auto w = r.warning_count(); w > 0) line += fmt::format(", {} warning{}", w, w == 1 ? "" : "s");
  return line;
}

// Lessons come in language pairs named NAME.en.toml / NAME.ko.toml. Asking for another
// language than the file's own switches to its sibling when there is one, so
// `lesson export gpu-story.en.toml --lang ko` exports the Korean lesson, not English captions
// under Korean labels. Without a sibling the file is used as given.
fs::path language_sibling(const fs::path& file, const std::string& lang) {
  const std::string name = file.filename().string();
  for (const char* code : {"en", "ko"}) {
    const std::string suffix = fmt::format(".{}.toml", code);
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    if (lang == code) return file;
    const fs::path sibling = file.parent_path() / (name.substr(0, name.size() - suffix.size()) + "." + lang + ".toml");
    std::error_code ec;
    return fs::exists(sibling, ec) ? sibling : file;
  }
  return file;
}

fs::path lessons_dir() { return fs::path(assets_dir()) / "lessons"; }

struct ExportArgs {
  std::string file;
  std::string out;
  std::string lang;
  std::string window;
  std::string config_dir;
  bool print_state = false;
  bool wait_results = false;
  std::optional<float> ui_scale, content_scale;
};

}  // namespace

void add_lesson_commands(CLI::App& app, int& exit_code) {
  auto* lesson_cmd = app.add_subcommand("lesson", "Lecture-mode lessons: check, export or list them");
  lesson_cmd->require_subcommand(1);

  // ---- check
  auto files = std::make_shared<std::vector<std::string>>();
  auto* check = lesson_cmd->add_subcommand(
      "check", "Parse lesson files and print every problem as FILE:LINE:COLUMN: error|warning: message.\n"
               "Exit 2 when any file has an error (warnings do not fail).");
  check->add_option("files", *files, "Lesson files (TOML)")->required()->expected(1, -1);
  check->callback([files, &exit_code] {
    const auto loaded = vocabulary_or_report(exit_code);
    if (!loaded) return;
    lesson::Vocabulary vocab = *loaded;
    // Placeholders this machine cannot fill (a GPU measurement without a GPU) are warnings.
    vocab.machine_has_gpu = machine_has_hardware_gpu();
    bool any_error = false;
    for (const auto& file : *files) {
      const auto r = check_file(file, vocab);
      if (r.ok())
        std::printf("%s\n", ok_line(file, r).c_str());
      else
        any_error = true;
    }
    exit_code = any_error ? 2 : 0;
  });

  // ---- export
  auto args = std::make_shared<ExportArgs>();
  auto* exp = lesson_cmd->add_subcommand(
      "export", "Render every step of a lesson headless to DIR/step-01.png, step-02.png, ...\n"
                "With --lang, a file named NAME.en.toml or NAME.ko.toml is swapped for its sibling in that\n"
                "language when the sibling exists. Needs a display (use xvfb-run on a server).");
  exp->add_option("file", args->file, "Lesson file (TOML)")->required();
  exp->add_option("--out", args->out, "Directory for the PNGs (created if missing)")->required();
  exp->add_option("--lang", args->lang, "UI language: en or ko (default: the lesson's own)")
      ->check(CLI::IsMember({"en", "ko"}));
  exp->add_option("--window", args->window, "Window size as WxH (default 1600x900)");
  exp->add_option("--config-dir", args->config_dir,
                  "Read and write settings.toml in this directory; without it an export leaves the saved settings "
                  "alone");
  exp->add_flag("--print-state", args->print_state,
                "After each PNG print one JSON line: lesson_step, caption (as drawn), caption_unfilled "
                "(placeholders shown as a dash) and clipped_text (text cut by its panel; drawn: every text drawn)");
  exp->add_option("--ui-scale", args->ui_scale, "UI scale, as Ctrl +/- sets it (default 1)")->check(CLI::Range(0.5f, 3.0f));
  exp->add_option("--content-scale", args->content_scale,
                  "Render as a monitor with this content scale would (2 = a 200 % HiDPI screen)")
      ->check(CLI::Range(0.5f, 4.0f));
  exp->add_flag("--wait-results", args->wait_results,
                "Write a step only once its caption has every value (a real run finished, the simulation done), "
                "or after 2 minutes");
  exp->callback([args, &exit_code] {
    GuiOptions gui;
    if (!args->window.empty() && !parse_window_size(args->window, gui.width, gui.height)) {
      std::fprintf(stderr, "warpscope: --window wants WxH between 320x240 and 7680x4320, got '%s'\n",
                   args->window.c_str());
      exit_code = 2;
      return;
    }
    const auto loaded = vocabulary_or_report(exit_code);
    if (!loaded) return;
    const lesson::Vocabulary& vocab = *loaded;
    fs::path file = args->file;
    if (!args->lang.empty()) {
      const fs::path chosen = language_sibling(file, args->lang);
      if (chosen != file) std::fprintf(stderr, "warpscope: --lang %s: exporting %s\n", args->lang.c_str(), chosen.string().c_str());
      file = chosen;
    }
    const auto r = check_file(file.string(), vocab);
    if (!r.ok()) {
      exit_code = 2;
      return;
    }
    std::error_code ec;
    fs::create_directories(args->out, ec);
    if (ec) {
      std::fprintf(stderr, "warpscope: cannot create %s: %s\n", args->out.c_str(), ec.message().c_str());
      exit_code = 1;
      return;
    }
    gui.lesson_path = file.string();
    gui.export_dir = args->out;
    gui.language = args->lang.empty() ? r.lesson->language : args->lang;
    gui.start_real_run = false;  // an export shows the lesson, it does not benchmark this machine
    gui.config_dir = args->config_dir;  // empty: the user's settings are neither read nor written
    gui.print_state = args->print_state;
    gui.wait_results = args->wait_results;
    gui.ui_scale = args->ui_scale;
    gui.content_scale = args->content_scale;
    exit_code = run_gui(gui);
  });

  // ---- list
  auto* list = lesson_cmd->add_subcommand("list", "List the built-in lessons (assets/lessons, or $WARPSCOPE_ASSETS/lessons)");
  list->callback([&exit_code] {
    const fs::path dir = lessons_dir();
    std::error_code ec;
    std::vector<fs::path> paths;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".toml") paths.push_back(it->path());
    if (ec || paths.empty()) {
      std::fprintf(stderr, "warpscope: no lessons in %s (set WARPSCOPE_ASSETS)\n", dir.string().c_str());
      exit_code = 1;
      return;
    }
    std::sort(paths.begin(), paths.end());
    const auto loaded = vocabulary_or_report(exit_code);
    if (!loaded) return;
    const lesson::Vocabulary& vocab = *loaded;
    exit_code = 0;
    for (const auto& p : paths) {
      const auto r = lesson::load_lesson_file(p, vocab);
      if (r.ok()) {
        std::printf("%s  [%s]  %zu steps  %s\n", p.string().c_str(), r.lesson->language.c_str(),
                    r.lesson->steps.size(), r.lesson->title.c_str());
      } else {
        std::printf("%s  %zu error%s (see `warpscope lesson check %s`)\n", p.string().c_str(), r.error_count(),
                    r.error_count() == 1 ? "" : "s", p.string().c_str());
        exit_code = 2;
      }
    }
  });
}

}  // namespace ws::app
