// The language the user's desktop speaks, for the window's first run: a Korean desktop opens in
// Korean without a trip to the Language menu. Once the user picks a language (or closes the
// window once), the saved setting decides.
#pragma once

#include <string>

namespace ws::app {

// "ko" or "en" from the POSIX locale variables (LC_ALL, else LC_MESSAGES, else LANG) and GNU's
// LANGUAGE preference list, which comes first where the locale is not C. Any language the app
// has no strings for, and the C locale, give "en".
std::string system_language_code();

}  // namespace ws::app
