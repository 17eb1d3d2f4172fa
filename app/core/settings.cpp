#include "core/settings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "core/file_write.hpp"
#include "lesson/text_file.hpp"

namespace ws::app {

namespace fs = std::filesystem;

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

void add_warning(Settings& s, const std::string& text) {
  if (!s.warning.empty()) s.warning += "; ";
  s.warning += text;
}

std::string_view node_type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    default: return "a date or time";
  }
}

// Reads `key` as one of `allowed` strings; anything else keeps the default and says why.
void read_choice(const toml::table& t, std::string_view key, std::initializer_list<std::string_view> allowed,
                 std::string& field, Settings& s, const std::string& where) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return;
  const auto* str = n->as_string();
  if (str == nullptr) {
    add_warning(s, fmt::format("{}: '{}' must be a string, not {}", where, key, node_type_name(*n)));
    return;
  }
  for (auto a : allowed)
    if (str->get() == a) {
      field = str->get();
      return;
    }
  std::string names;
  for (auto a : allowed) names += (names.empty() ? "" : ", ") + std::string(a);
  add_warning(s, fmt::format("{}: unknown {} '{}' (valid: {})", where, key, str->get(), names));
}

}  // namespace

fs::path settings_dir() {
  if (auto dir = env("WARPSCOPE_CONFIG_DIR"); !dir.empty()) return fs::path(dir);
  if (auto xdg = env("XDG_CONFIG_HOME"); !xdg.empty() && fs::path(xdg).is_absolute())
    return fs::path(xdg) / "warpscope";
  if (auto home = env("HOME"); !home.empty()) return fs::path(home) / ".config" / "warpscope";
  return {};
}

fs::path settings_path() {
  const fs::path dir = settings_dir();
  return dir.empty() ? fs::path() : dir / "settings.toml";
}

Settings load_settings() {
  const fs::path file = settings_path();
  if (file.empty()) return Settings{};  // nowhere to look: first run on an odd system, not a problem
  return load_settings_from(file);
}

Settings load_settings_from(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return Settings{};  // first run
  const std::string where = file.string();
  const TextFile read = read_text_file(file, kMaxSettingsBytes, "settings file");
  if (!read.text) {
    Settings s;
    add_warning(s, fmt::format("{}: {}; using defaults", where, read.error));
    return s;
  }
  return parse_settings(*read.text, where);
}

Settings parse_settings(std::string_view text, const std::string& where) {
  Settings s;
  toml::table root;
  try {
    root = toml::parse(text, where);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    add_warning(s, fmt::format("{}:{}:{}: {}; using default settings", where, b.line, b.column, e.description()));
    return s;
  } catch (const std::exception& e) {
    add_warning(s, fmt::format("{}: {}; using default settings", where, e.what()));
    return s;
  }

  read_choice(root, "theme", {"dark", "light"}, s.theme, s, where);
  read_choice(root, "language", {"en", "ko"}, s.language, s, where);

  if (const toml::node* n = root.get("ui_scale")) {
    if (auto v = n->value<double>(); v && (n->is_number())) {
      // NaN would survive a clamp and make every widget vanish.
      if (std::isfinite(*v))
        s.ui_scale = static_cast<float>(std::clamp(*v, double{kMinUiScale}, double{kMaxUiScale}));
      else
        add_warning(s, fmt::format("{}: 'ui_scale' is not a finite number", where));
    } else {
      add_warning(s, fmt::format("{}: 'ui_scale' must be a number, not {}", where, node_type_name(*n)));
    }
  }
  if (const toml::node* n = root.get("projector")) {
    if (const auto* b = n->as_boolean())
      s.projector = b->get();
    else
      add_warning(s, fmt::format("{}: 'projector' must be true or false, not {}", where, node_type_name(*n)));
  }
  if (const toml::node* n = root.get("last_lesson")) {
    if (const auto* str = n->as_string())
      s.last_lesson = str->get();
    else
      add_warning(s, fmt::format("{}: 'last_lesson' must be a string, not {}", where, node_type_name(*n)));
  }
  if (const toml::node* n = root.get("last_step")) {
    if (const auto* i = n->as_integer())
      s.last_step = static_cast<int>(std::clamp<std::int64_t>(i->get(), 0, kMaxLastStep));
    else
      add_warning(s, fmt::format("{}: 'last_step' must be an integer, not {}", where, node_type_name(*n)));
  }
  return s;
}

bool save_settings(const Settings& settings, std::string* error) {
  const fs::path file = settings_path();
  if (file.empty()) {
    if (error) *error = "no config directory: set XDG_CONFIG_HOME or HOME";
    return false;
  }
  return save_settings_to(settings, file, error);
}

bool save_settings_to(const Settings& settings, const fs::path& file, std::string* error) {
  auto fail = [&](const std::string& what) {
    if (error) *error = what;
    return false;
  };
  try {
    std::error_code ec;
    const fs::path dir = file.parent_path();
    if (!dir.empty()) {
      fs::create_directories(dir, ec);
      if (ec) return fail(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
    }

    toml::table t;
    t.insert("theme", settings.theme);
    t.insert("ui_scale", static_cast<double>(std::clamp(settings.ui_scale, kMinUiScale, kMaxUiScale)));
    if (!settings.language.empty()) t.insert("language", settings.language);  // else not chosen yet
    t.insert("projector", settings.projector);
    t.insert("last_lesson", settings.last_lesson);
    t.insert("last_step", static_cast<std::int64_t>(std::clamp(settings.last_step, 0, kMaxLastStep)));
    std::ostringstream out;
    out << "# warpscope settings, rewritten when the app closes.\n" << t << "\n";
    const std::string text = out.str();

    // Two instances closing at once each write their own temporary file; whichever renames last
    // wins, and either file is complete.
    std::string why;
    if (!write_file_whole(file, text, &why)) return fail(why);
    return true;
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

}  // namespace ws::app
