// Korean particles after inserted values: 은/는, 이/가, 을/를, 와/과, (으)로 chosen from how the
// value ends when read aloud (docs/LESSONS.md, "Korean particles").
#include "lesson.hpp"

#include <array>
#include <cstdint>

namespace ws::lesson {

namespace {

// UTF-8 to code points; a malformed byte becomes U+FFFD, so any input is read to its end.
std::u32string decode(std::string_view s) {
    std::u32string out;
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        int len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
        char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
        bool ok = len > 0 && i + static_cast<std::size_t>(len) <= s.size();
        for (int k = 1; ok && k < len; ++k) {
            const auto c = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
            if ((c & 0xC0) != 0x80) ok = false;
            cp = (cp << 6) | (c & 0x3F);
        }
        if (!ok) {
            out.push_back(U'\uFFFD');
            ++i;
            continue;
        }
        out.push_back(cp);
        i += static_cast<std::size_t>(len);
    }
    return out;
}

bool is_digit(char32_t c) { return c >= U'0' && c <= U'9'; }

// Skipped at the end of a value: they are not read aloud.
bool is_silent(char32_t c) {
    switch (c) {
        case U' ': case U'\t': case U'\n': case U'\r': case U'\u00A0':
        case U')': case U']': case U'}': case U'>':
        case U'"': case U'\'': case U'\u2019': case U'\u201D':
        case U'\u300D': case U'\u300F': case U'\u3009': case U'\u300B': case U'\u3011': case U'\uFF09':
        case U'.': case U',': case U'!': case U'?': case U':': case U';':
            return true;
        default:
            return false;
    }
}

// 영 일 이 삼 사 오 육 칠 팔 구.
constexpr std::array<Final, 10> kDigitFinal = {Final::other, Final::rieul, Final::none,  Final::other, Final::none,
                                               Final::none,  Final::other, Final::rieul, Final::rieul, Final::none};

// A whole number ending in `zeros` zeros (and not all zeros) ends on its unit's syllable:
// 십 백 천, then 만 (to 천만), 억, 조, 경.
Final unit_final(std::size_t zeros) {
    if (zeros >= 12 && zeros < 16) return Final::none;  // 조
    return Final::other;                                // 십 백 천 만 억 경
}

// English letter names as Korean says them: A 에이, B 비, C 씨, ... only L 엘, M 엠, N 엔 and R 알
// end in a consonant.
Final letter_final(char32_t c) {
    if (c >= U'a' && c <= U'z') c = c - U'a' + U'A';
    switch (c) {
        case U'L': case U'R': return Final::rieul;
        case U'M': case U'N': return Final::other;
        default: return Final::none;
    }
}

}  // namespace

std::optional<Particle> parse_particle(std::string_view spec) {
    while (!spec.empty() && (spec.front() == ' ' || spec.front() == '\t')) spec.remove_prefix(1);
    while (!spec.empty() && (spec.back() == ' ' || spec.back() == '\t')) spec.remove_suffix(1);
    struct Form { std::string_view text; Particle p; };
    static constexpr Form forms[] = {
        {"은", Particle::topic},   {"는", Particle::topic},   {"은/는", Particle::topic},   {"는/은", Particle::topic},
        {"이", Particle::subject}, {"가", Particle::subject}, {"이/가", Particle::subject}, {"가/이", Particle::subject},
        {"을", Particle::object},  {"를", Particle::object},  {"을/를", Particle::object},  {"를/을", Particle::object},
        {"와", Particle::with},    {"과", Particle::with},    {"와/과", Particle::with},    {"과/와", Particle::with},
        {"로", Particle::toward},  {"으로", Particle::toward}, {"(으)로", Particle::toward}, {"로/으로", Particle::toward},
        {"으로/로", Particle::toward},
    };
    for (const auto& f : forms)
        if (spec == f.text) return f.p;
    return std::nullopt;
}

std::string_view particle_names() { return "은/는, 이/가, 을/를, 와/과, (으)로"; }

std::optional<Final> korean_final(std::string_view text) {
    const std::u32string cps = decode(text);
    std::size_t end = cps.size();
    while (end > 0 && is_silent(cps[end - 1])) --end;
    if (end == 0) return std::nullopt;
    const char32_t c = cps[end - 1];

    if (c >= 0xAC00 && c <= 0xD7A3) {  // a Hangul syllable: (c - 가) % 28 is its final consonant
        const auto jong = (c - 0xAC00) % 28;
        return jong == 0 ? Final::none : jong == 8 ? Final::rieul : Final::other;
    }
    if (is_digit(c)) {
        // Back over the number, commas between digits included.
        std::size_t start = end;
        while (start > 0 && (is_digit(cps[start - 1]) ||
                             (cps[start - 1] == U',' && start >= 2 && is_digit(cps[start - 2]))))
            --start;
        // After a decimal point digits are read one by one: 1.98 is 일 점 구팔.
        if (start >= 2 && cps[start - 1] == U'.' && is_digit(cps[start - 2])) return kDigitFinal[c - U'0'];
        std::size_t zeros = 0, digits = 0;
        bool counting = true;
        for (std::size_t i = end; i > start; --i) {
            const char32_t d = cps[i - 1];
            if (!is_digit(d)) continue;
            ++digits;
            if (counting && d == U'0')
                ++zeros;
            else
                counting = false;
        }
        if (zeros == digits) return Final::other;  // 영
        if (zeros == 0) return kDigitFinal[c - U'0'];
        return unit_final(zeros);
    }
    if ((c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z')) {
        // A word, not an acronym, ending in -er/-or/-ar is borrowed without the r: Processor 프로세서,
        // Hopper 호퍼. Read as the letter R (알) it would wrongly take 은.
        const char32_t before = end >= 2 ? cps[end - 2] : U' ';
        if (c == U'r' && (before == U'e' || before == U'o' || before == U'a')) return Final::none;
        return letter_final(c);
    }
    switch (c) {
        case U'%': return Final::none;                        // 퍼센트
        case U'\u00D7': return Final::none;                   // × 배
        case U'+': return Final::none;                        // 플러스
        case U'\u00B2': case U'\u00B3': return Final::other;  // 제곱, 세제곱
        case U'\u00B0': return Final::none;                   // 도
        default: return std::nullopt;
    }
}

std::string particle_after(std::string_view value, Particle particle) {
    const std::optional<Final> f = korean_final(value);
    const bool known = f.has_value();
    const bool batchim = known && *f != Final::none;
    switch (particle) {
        case Particle::topic: return !known ? "은(는)" : batchim ? "은" : "는";
        case Particle::subject: return !known ? "이(가)" : batchim ? "이" : "가";
        case Particle::object: return !known ? "을(를)" : batchim ? "을" : "를";
        case Particle::with: return !known ? "과(와)" : batchim ? "과" : "와";
        case Particle::toward: return !known ? "(으)로" : (*f == Final::other) ? "으로" : "로";
    }
    return {};
}

}  // namespace ws::lesson
