#include "sim/gen_history.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <queue>
#include <vector>

#include "base/json_escape.h"
#include "learn/outcomes/pattern_extraction.h"
#include "model/schema.h"
#include "model/timestamp.h"
#include "model/uuid.h"
#include "sim/xoshiro.h"

namespace kaizen::sim {
namespace {

constexpr int64_t kSecond = 1000;
constexpr int64_t kMinute = 60 * kSecond;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;

// ---- Randomness ------------------------------------------------------------------------------

// The generator (sim/xoshiro.h), and the distributions a history draws from.
class Rng : public Xoshiro256 {
 public:
  using Xoshiro256::Xoshiro256;

  // A standard normal by table lookup: about 20 are drawn per event, and Box-Muller's log and
  // sincos were a tenth of the run time. Tails stop near +-3.8, which no field here misses.
  double Normal() {
    const auto& table = NormalTable();
    const uint64_t r = Next();
    const size_t k = r >> 52;
    const double f = static_cast<double>((r >> 20) & 0xFFFFFFFFu) * 0x1.0p-32;
    return table[k] + (table[k + 1] - table[k]) * f;
  }
  double Exp(double mean) { return -std::log(1.0 - U()) * mean; }
  double LogNormal(double median, double sigma) { return median * std::exp(sigma * Normal()); }
  template <typename Container>
  const auto& Pick(const Container& c) {
    return c[Below(static_cast<uint32_t>(std::size(c)))];
  }
  template <size_t N>
  int Weighted(const std::array<double, N>& w) {
    double total = 0;
    for (double x : w) total += x;
    double u = U() * total;
    for (size_t i = 0; i < N; ++i) {
      if (u < w[i]) return static_cast<int>(i);
      u -= w[i];
    }
    for (size_t i = N; i-- > 0;) {
      if (w[i] > 0) return static_cast<int>(i);
    }
    return 0;
  }

 private:
  static const std::array<double, 4097>& NormalTable() {
    static const std::array<double, 4097> table = [] {
      std::array<double, 4097> t{};
      for (size_t i = 0; i < t.size(); ++i) {
        t[i] = InverseNormal(
            std::clamp(static_cast<double>(i) / 4096.0, 1.0 / 16384, 1 - 1.0 / 16384));
      }
      return t;
    }();
    return table;
  }
  // Acklam's rational approximation of the inverse normal CDF (relative error < 1.2e-9).
  static double InverseNormal(double p) {
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                   -2.759285104469687e+02, 1.383577518672690e+02,
                                   -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                   -1.556989798598866e+02, 6.680131188771972e+01,
                                   -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                   -2.400758277161838e+00, -2.549732539343734e+00,
                                   4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                   2.445134137142996e+00, 3.754408661907416e+00};
    const auto tail = [&](double q) {
      return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
             ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    };
    if (p < 0.02425) return tail(std::sqrt(-2 * std::log(p)));
    if (p > 1 - 0.02425) return -tail(std::sqrt(-2 * std::log(1 - p)));
    const double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
};

double Clamp(double v, double lo, double hi) { return std::min(hi, std::max(lo, v)); }
// Half away from zero, like std::llround, without the call into libm.
int64_t Round(double x) { return static_cast<int64_t>(x < 0 ? x - 0.5 : x + 0.5); }

// ---- JSON ------------------------------------------------------------------------------------

// Copies a short piece with fixed-size moves: most pieces are a few bytes, and a call into libc's
// memcpy per piece costs more than the copy.
[[gnu::always_inline]] inline char* Copy(char* to, std::string_view s) {
  const char* from = s.data();
  size_t n = s.size();
  if (n > 64) {
    std::memcpy(to, from, n);
    return to + n;
  }
  for (; n >= 8; n -= 8, from += 8, to += 8) std::memcpy(to, from, 8);
  if (n >= 4) {
    std::memcpy(to, from, 4);
    std::memcpy(to + n - 4, from + n - 4, 4);
  } else if (n > 0) {
    to[0] = from[0];
    to[n / 2] = from[n / 2];
    to[n - 1] = from[n - 1];
  }
  return to + n;
}

// Writes through a raw pointer into a buffer that the generator keeps at least kMaxLineBytes
// ahead of the cursor, so no write checks capacity: a million events are several hundred MB, and
// per-character bounds checks or a DOM would dominate the run time. Every method works on a local
// copy of the cursor: a store through char* may alias any member, so writing through p_ directly
// would reload and store it around every byte.
class Json {
 public:
  void Reset(char* at) { p_ = at; }
  char* pos() const { return p_; }

  [[gnu::always_inline]] Json& Key(std::string_view k) {
    char* p = p_;
    if (!first_[depth_]) *p++ = ',';
    first_[depth_] = false;
    after_key_ = true;
    *p++ = '"';
    p = Copy(p, k);
    p[0] = '"';
    p[1] = ':';
    p_ = p + 2;
    return *this;
  }
  [[gnu::always_inline]] void Object() { Open('{'); }
  [[gnu::always_inline]] void EndObject() { Close('}'); }
  [[gnu::always_inline]] void Array() { Open('['); }
  [[gnu::always_inline]] void EndArray() { Close(']'); }
  void Str(std::string_view s) {
    char* p = Value(p_);
    *p++ = '"';
    p = Escaped(p, s);
    *p++ = '"';
    p_ = p;
  }
  // A string from this file's own tables, which hold no character JSON must escape: skipping
  // the check is a good part of the cost of writing a line.
  [[gnu::always_inline]] void Lit(std::string_view s) {
    assert(!base::NeedsJsonEscaping(s));
    char* p = Value(p_);
    *p++ = '"';
    p = Copy(p, s);
    *p++ = '"';
    p_ = p;
  }
  // A string assembled from pieces: BeginStr(), then Esc/Raw/RawNum/RawHex..., then EndStr().
  [[gnu::always_inline]] void BeginStr() {
    char* p = Value(p_);
    *p++ = '"';
    p_ = p;
  }
  [[gnu::always_inline]] void EndStr() { *p_++ = '"'; }
  void Esc(std::string_view s) { p_ = Escaped(p_, s); }
  // REQUIRES: no '"', '\\' or control characters (slugs, digits, fixed words).
  [[gnu::always_inline]] void Raw(std::string_view s) { p_ = Copy(p_, s); }
  void Raw(std::initializer_list<std::string_view> parts) {
    char* p = p_;
    for (std::string_view s : parts) p = Copy(p, s);
    p_ = p;
  }
  // Decimal digits, zero-padded to `width`.
  void RawNum(uint64_t v, int width = 0) {
    char b[40];  // digits end at b[20]; a fixed 20-byte copy beats a variable one
    int n = 0;
    do {
      b[19 - n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    char* p = p_;
    for (int pad = width - n; pad > 0; --pad) *p++ = '0';
    std::memcpy(p, b + 20 - n, 20);
    p_ = p + n;
  }
  void RawHex(uint64_t v, int digits) { p_ = Hex(p_, v, digits); }
  void Int(int64_t v) {
    char* p = Value(p_);
    if (v < 0) {
      *p++ = '-';
      v = -v;
    }
    p_ = p;
    RawNum(static_cast<uint64_t>(v));
  }
  // Fixed-point with trailing zeros dropped: 0.850 -> 0.85, 7.0 -> 7. REQUIRES: |v| < 1e12.
  // (std::to_chars with a precision costs hundreds of instructions per number.)
  void Num(double v, int decimals) {
    static constexpr std::array<int64_t, 7> kScale = {1, 10, 100, 1000, 10000, 100000, 1000000};
    char* p = Value(p_);
    const double x = v * static_cast<double>(kScale[decimals]);
    int64_t scaled = static_cast<int64_t>(x < 0 ? x - 0.5 : x + 0.5);
    if (scaled < 0) {
      *p++ = '-';
      scaled = -scaled;
    }
    p_ = p;
    RawNum(static_cast<uint64_t>(scaled / kScale[decimals]));
    p = p_;
    int64_t frac = scaled % kScale[decimals];
    if (frac != 0) {
      int digits = decimals;
      while (frac % 10 == 0) {
        frac /= 10;
        --digits;
      }
      *p++ = '.';
      for (int i = digits - 1; i >= 0; --i, frac /= 10) p[i] = static_cast<char>('0' + frac % 10);
      p += digits;
    }
    p_ = p;
  }
  [[gnu::always_inline]] void Bool(bool v) {
    p_ = Copy(Value(p_), v ? std::string_view("true") : std::string_view("false"));
  }
  void Timestamp(int64_t unix_ms) {
    // Most consecutive events fall on the same day: reuse its calendar date.
    const int64_t day = unix_ms >= 0 ? unix_ms / kDay : (unix_ms - kDay + 1) / kDay;
    if (day != cached_day_) {
      const model::CivilTime c = model::ToCivil(day * kDay);
      std::memcpy(date_, "0000-00-00T", 11);
      Digits(date_, c.year, 4);
      Digits(date_ + 5, c.month, 2);
      Digits(date_ + 8, c.day, 2);
      cached_day_ = day;
    }
    const int64_t ms = unix_ms - day * kDay;
    char* p = Value(p_);
    *p++ = '"';
    std::memcpy(p, date_, 11);
    char* t = p + 11;
    std::memcpy(t, "00:00:00.000Z\"", 14);
    Digits(t, static_cast<int>(ms / kHour), 2);
    Digits(t + 3, static_cast<int>(ms / kMinute % 60), 2);
    Digits(t + 6, static_cast<int>(ms / kSecond % 60), 2);
    Digits(t + 9, static_cast<int>(ms % 1000), 3);
    p_ = t + 14;
  }
  void Uuid(const model::Uuid& u) {
    static constexpr auto kPairs = [] {
      std::array<char, 512> t{};
      constexpr char kHex[] = "0123456789abcdef";
      for (int i = 0; i < 256; ++i) {
        t[2 * i] = kHex[i >> 4];
        t[2 * i + 1] = kHex[i & 15];
      }
      return t;
    }();
    // "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx": byte i goes to kAt[i].
    static constexpr std::array<uint8_t, 16> kAt = {1,  3,  5,  7,  10, 12, 15, 17,
                                                    20, 22, 25, 27, 29, 31, 33, 35};
    char* p = Value(p_);
    std::memcpy(p, "\"------------------------------------\"", 38);
    for (size_t i = 0; i < 16; ++i) std::memcpy(p + kAt[i], &kPairs[2 * u.bytes[i]], 2);
    p_ = p + 38;
  }
  void EndLine() { *p_++ = '\n'; }

 private:
  static void Digits(char* at, int v, int n) {
    for (int i = n - 1; i >= 0; --i, v /= 10) at[i] = static_cast<char>('0' + v % 10);
  }
  static char* Hex(char* p, uint64_t v, int digits) {
    static constexpr char kHex[] = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; --i) *p++ = kHex[(v >> (4 * i)) & 15];
    return p;
  }
  // The separator before a value: none after a key, a comma between array elements.
  [[gnu::always_inline]] char* Value(char* p) {
    if (after_key_) {
      after_key_ = false;
      return p;
    }
    if (depth_ > 0) {
      if (!first_[depth_]) *p++ = ',';
      first_[depth_] = false;
    }
    return p;
  }
  [[gnu::always_inline]] void Open(char c) {
    char* p = Value(p_);
    *p++ = c;
    p_ = p;
    first_[++depth_] = true;
  }
  [[gnu::always_inline]] void Close(char c) {
    *p_++ = c;
    --depth_;
  }
  static char* Escaped(char* p, std::string_view s) {
    if (!base::NeedsJsonEscaping(s)) return Copy(p, s);
    for (char ch : s) {
      const unsigned char c = static_cast<unsigned char>(ch);
      if (c >= 0x20 && c != '"' && c != '\\') {
        *p++ = ch;
        continue;
      }
      *p++ = '\\';
      switch (c) {
        case '"':
          *p++ = '"';
          break;
        case '\\':
          *p++ = '\\';
          break;
        case '\n':
          *p++ = 'n';
          break;
        case '\t':
          *p++ = 't';
          break;
        default:
          *p++ = 'u';
          *p++ = '0';
          *p++ = '0';
          p = Hex(p, c, 2);
      }
    }
    return p;
  }

  char* p_ = nullptr;
  int depth_ = 0;
  bool after_key_ = false;
  std::array<bool, 16> first_{};
  int64_t cached_day_ = INT64_MIN;
  char date_[11] = {};
};

// ---- The world: dimensions, servers, product types ------------------------------------------

enum Dim : int {
  kCodeQuality,
  kDesignAesthetics,
  kDesignUx,
  kTestCoverage,
  kDocumentation,
  kArchitecture,
  kErrorHandling,
  kPerformance,
  kSecurity,
  kCreativity,
  kCompleteness,
  kNaming,
  kDx,
  kDimCount
};
constexpr uint16_t Bit(Dim d) { return static_cast<uint16_t>(1u << d); }

// Dim follows the schema's QualityDimensions() order, so a Dim indexes the schema's names.
std::string_view DimName(int d) { return model::QualityDimensions()[static_cast<size_t>(d)]; }

// The agent's mean quality per dimension on day 0 and at the end of the history. Error handling
// and security start worst and improve most: that is what the reviewers push hardest on.
constexpr std::array<double, kDimCount> kQualityStart = {5.5, 5.2, 5.2, 4.7, 4.8, 5.7, 4.2,
                                                         5.9, 5.0, 5.7, 5.7, 5.3, 5.5};
constexpr std::array<double, kDimCount> kQualityEnd = {7.4, 6.8, 7.0, 7.3, 7.1, 7.2, 7.7,
                                                       7.0, 7.5, 6.6, 7.6, 7.4, 7.2};

struct Server {
  std::string_view slug, name;
  float offset;    // overall maturity of the integration
  float security;  // extra, on security
  float errors;    // extra, on error handling
  std::array<std::string_view, 4> domains;
};
const std::array<Server, 6> kServers = {{
    {"shopify", "Shopify", 0.5f, 0.0f, 0.0f, {"orders", "inventory", "products", "fulfillments"}},
    {"stripe", "Stripe", 0.2f, -0.6f, -0.2f, {"payments", "subscriptions", "invoices", "refunds"}},
    {"ghl",
     "GoHighLevel",
     -0.6f,
     -0.2f,
     -0.8f,
     {"contacts", "pipelines", "appointments", "campaigns"}},
    {"github", "GitHub", 0.3f, -0.4f, 0.0f, {"issues", "branches", "workflows", "releases"}},
    {"slack", "Slack", 0.0f, 0.0f, -0.1f, {"channels", "messages", "reminders", "bookmarks"}},
    {"notion", "Notion", -0.3f, 0.0f, -0.3f, {"pages", "databases", "blocks", "comments"}},
}};
constexpr std::array<double, 6> kServerWeights = {0.24, 0.18, 0.14, 0.18, 0.13, 0.13};
bool SecuritySensitive(int server) { return server == 1 || server == 3; }

constexpr std::array<std::string_view, 6> kFeatures = {"webhook handler", "cursor pagination",
                                                       "OAuth flow",      "rate limiter",
                                                       "bulk sync",       "retry queue"};
// The reviewers' hidden taste for each feature, in score points: what an A/B comparison of two
// designs lets kaizen's preference vector recover.
constexpr std::array<double, 6> kFeatureTaste = {0.0, 0.4, -0.3, 0.6, -0.6, 0.8};
constexpr std::array<std::string_view, 5> kStages = {"scaffold", "implement", "test", "review",
                                                     "deploy"};

struct ProductType {
  std::string_view name, slug;
  std::array<double, 5> stage_weights;
  uint16_t dims;                   // the dimensions a review of this type scores from
  std::array<double, 4> affinity;  // who it is routed to (jake, maria, sam, priya)
};
const std::array<ProductType, 6> kTypes = {{
    {"mcp-server",
     "mcp",
     {0.2, 0.45, 0.1, 0.2, 0.05},
     Bit(kCodeQuality) | Bit(kErrorHandling) | Bit(kSecurity) | Bit(kTestCoverage) |
         Bit(kDocumentation) | Bit(kNaming) | Bit(kArchitecture) | Bit(kPerformance) |
         Bit(kCompleteness) | Bit(kDx),
     {1.6, 0.8, 0.6, 0.6}},
    {"code-module",
     "module",
     {0.15, 0.5, 0.1, 0.2, 0.05},
     Bit(kCodeQuality) | Bit(kErrorHandling) | Bit(kNaming) | Bit(kArchitecture) |
         Bit(kPerformance) | Bit(kTestCoverage) | Bit(kDocumentation) | Bit(kSecurity),
     {1.2, 0.9, 1.0, 0.8}},
    {"test-suite",
     "tests",
     {0.0, 0.1, 0.75, 0.15, 0.0},
     Bit(kTestCoverage) | Bit(kCodeQuality) | Bit(kCompleteness) | Bit(kNaming) |
         Bit(kPerformance) | Bit(kErrorHandling),
     {0.5, 0.4, 0.2, 2.5}},
    {"documentation",
     "docs",
     {0.1, 0.2, 0.0, 0.6, 0.1},
     Bit(kDocumentation) | Bit(kCompleteness) | Bit(kNaming) | Bit(kDx),
     {0.2, 3.0, 0.3, 0.2}},
    {"design",
     "design",
     {0.5, 0.3, 0.0, 0.2, 0.0},
     Bit(kDesignAesthetics) | Bit(kDesignUx) | Bit(kCreativity) | Bit(kCompleteness) | Bit(kDx),
     {0.1, 0.4, 3.0, 0.1}},
    {"pipeline-config",
     "pipeline",
     {0.1, 0.1, 0.1, 0.1, 0.6},
     Bit(kSecurity) | Bit(kErrorHandling) | Bit(kCompleteness) | Bit(kDx) | Bit(kDocumentation),
     {1.8, 0.5, 0.3, 1.0}},
}};
constexpr std::array<double, 6> kTypeWeights = {0.38, 0.24, 0.12, 0.09, 0.09, 0.08};
bool IsCode(int type) { return type == 0 || type == 1 || type == 2 || type == 5; }

// ---- Reviewers -------------------------------------------------------------------------------

enum Decision : int { kApproved, kRejected, kNeedsWork, kDeferred };
constexpr std::array<std::string_view, 4> kDecisionNames = {"approved", "rejected", "needs-work",
                                                            "deferred"};

struct Gate {
  Dim dim;
  int below;  // a score under this triggers `outcome`...
  Decision outcome;
  double p;  // ...this often
};

struct Reviewer {
  std::string_view id;
  double share;  // of all feedback
  uint16_t focus;
  std::array<float, kDimCount> bias;  // added to the true quality when this reviewer scores it
  std::vector<Gate> gates;
  double approve_at;                     // mean score from which the reviewer approves
  double ttd_scale;                      // how long this reviewer deliberates
  double scroll;                         // how much of a work product this reviewer reads
  std::array<double, 24> weekday_hours;  // when this reviewer reviews: intensity per UTC hour
  double weekend;
  std::vector<std::string_view> notes_negative, notes_positive;
};

// `w` for the hours from..to (inclusive), `rest` elsewhere, then the exceptions.
std::array<double, 24> Hours(int from, int to, double w,
                             std::initializer_list<std::pair<int, double>> except = {},
                             double rest = 0) {
  std::array<double, 24> h;
  h.fill(rest);
  for (int hour = from; hour <= to; ++hour) h[hour] = w;
  for (auto [hour, x] : except) h[hour] = x;
  return h;
}

const std::vector<Reviewer>& Reviewers() {
  static const std::vector<Reviewer> r = [] {
    std::vector<Reviewer> v(4);
    v[0] = {
        "jake",
        0.34,
        Bit(kErrorHandling) | Bit(kSecurity) | Bit(kCodeQuality),
        {-0.3f, 0, 0, 0, 0, 0, -0.8f, 0, -0.7f, 0, 0, 0.2f, 0},
        {{kErrorHandling, 5, kRejected, 0.97},
         {kSecurity, 6, kRejected, 0.9},
         {kCodeQuality, 5, kNeedsWork, 0.8}},
        6.8,
        1.2,
        0.85,
        {0,   0,   0,   0,   0,   0,   0,   0,    0.6,  1.6, 1.7, 1.2,
         0.4, 0.8, 1.5, 1.5, 1.0, 0.6, 0.2, 0.15, 0.15, 0.1, 0,   0},
        0.05,
        {"Error handling is the first thing I read, and it is not there yet.",
         "Not shippable without retries and specific error types.",
         "Fix the blockers and resubmit.", "Treat every external call as something that will fail.",
         "Security review needed before this goes anywhere near production."},
        {"Solid. This is the bar for MCP servers.", "Good work, ship it.",
         "Error handling finally looks production ready.", "Much better than the last version."}};
    v[1] = {"maria",
            0.26,
            Bit(kNaming) | Bit(kDocumentation) | Bit(kDx),
            {0.4f, 0.4f, 0.4f, 0.4f, -0.8f, 0.4f, 0.3f, 0.4f, 0.4f, 0.4f, 0.4f, -0.7f, -0.2f},
            {{kNaming, 5, kNeedsWork, 0.85},
             {kDocumentation, 5, kNeedsWork, 0.85},
             {kErrorHandling, 5, kRejected, 0.9}},
            6.3,
            1.0,
            0.7,
            Hours(10, 18, 1.0, {{9, 0.5}, {19, 0.3}}),
            0.03,
            {"Names and docs are how the next person understands this.",
             "Please document the environment variables before this goes out.",
             "Hard to follow without better names.",
             "The README should answer the first three questions a new user has."},
            {"Reads well, thanks for the clear docs.", "Easy to follow, good naming throughout.",
             "Exactly the level of documentation I want to see."}};
    v[2] = {"sam",
            0.22,
            Bit(kDesignAesthetics) | Bit(kDesignUx) | Bit(kArchitecture) | Bit(kCreativity),
            {0.2f, -0.6f, -0.6f, 0.2f, 0.2f, -0.4f, 0.2f, 0.2f, 0.2f, 0.3f, 0.2f, 0.2f, 0.2f},
            {{kDesignAesthetics, 5, kRejected, 0.8},
             {kDesignUx, 5, kRejected, 0.8},
             {kArchitecture, 5, kNeedsWork, 0.8},
             {kErrorHandling, 5, kRejected, 0.9}},
            6.5,
            1.1,
            0.6,
            {0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
             0.6, 1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.9, 0.8, 0.5, 0.2, 0},
            0.15,
            {"The layout needs another pass.", "The structure fights the use case.",
             "Let's rethink the component boundaries.", "Too much going on visually; simplify."},
            {"Clean design, nice work.", "Good separation, easy to extend.",
             "Calm, professional look. Ship it."}};
    v[3] = {
        "priya",
        0.18,
        Bit(kTestCoverage) | Bit(kPerformance) | Bit(kCompleteness),
        {0.1f, 0.1f, 0.1f, -0.8f, 0.1f, 0.1f, 0.1f, -0.4f, 0.1f, 0.1f, -0.2f, 0.1f, 0.1f},
        {{kTestCoverage, 5, kNeedsWork, 0.9},
         {kPerformance, 4, kNeedsWork, 0.7},
         {kErrorHandling, 5, kRejected, 0.9}},
        6.5,
        0.9,
        0.75,
        {0, 0, 0, 0, 0, 0, 0, 0.8, 1.2, 1.2, 1.2, 1.2, 0.5, 1.2, 1.0, 0.6, 0, 0, 0, 0, 0, 0, 0, 0},
        0.02,
        {"Show me the test for the failure path.", "Needs tests before I can approve this.",
         "Performance will bite us at scale."},
        {"Well tested, good job.", "Tests cover the edge cases I care about.",
         "Fast and well covered."}};
    return v;
  }();
  return r;
}

// ---- Phrase pools ----------------------------------------------------------------------------

struct DimText {
  std::vector<std::string_view> liked, disliked, fixes;
};

const std::array<DimText, kDimCount>& Texts() {
  static const std::array<DimText, kDimCount> t = {{
      // code-quality
      {{"Strict types end to end", "Functional style, easy to follow",
        "Small focused modules with no magic"},
       {"Uses TypeScript any in the public types", "Duplicated request code in every tool",
        "Hardcoded configuration values", "Dead code left over from the scaffold"},
       {"Replace any with precise types", "Extract the shared request code into one client",
        "Move configuration into environment variables"}},
      // design-aesthetics
      {{"Clean, minimal layout with generous whitespace", "Muted professional palette",
        "Inter and system fonts, very readable"},
       {"Too many gradients and animations", "Spacing is cramped, needs more whitespace",
        "Decorative font hurts readability", "Vibrant palette feels like a toy"},
       {"Drop the animations and gradients", "Use the muted palette from the style guide",
        "Increase spacing between cards"}},
      // design-ux
      {{"Card-based dashboard layout works well", "Clear visual hierarchy",
        "Empty states explain what to do next"},
       {"Table layout for the dashboard; cards would read better", "Primary action is hard to find",
        "Empty states are not designed", "Too many clicks to reach the main task"},
       {"Use cards instead of the table", "Make the primary action obvious",
        "Design the empty and error states"}},
      // test-coverage
      {{"Edge cases covered: empty input, Unicode, rate limits",
        "Integration tests against the sandbox API", "Fast, deterministic unit tests"},
       {"No tests for empty arrays or null values", "Edge cases around pagination are untested",
        "Tests mock everything, so they prove nothing", "Flaky test depends on wall-clock time",
        "No test for the rate limit path"},
       {"Add tests for empty arrays, null values and rate limits",
        "Test the failure path, not just the happy path",
        "Replace the wall-clock dependency with an injected clock"}},
      // documentation
      {{"README walks through setup step by step",
        "Every public function has a docstring with an example",
        "Tool descriptions are clear and specific"},
       {"Public functions have no JSDoc",
        "README does not explain the required environment variables",
        "No docs for the rate limit behavior",
        "Tool descriptions are too terse for the model to choose between them"},
       {"Add JSDoc to every exported function", "Document the environment variables in the README",
        "Write tool descriptions that say when to use each tool"}},
      // architecture
      {{"Nice use of builder pattern for config", "Clear separation of concerns",
        "Explicit dependencies, no hidden globals"},
       {"Business logic is mixed into the transport layer", "One 400-line handler does everything",
        "Hidden global state in the client module",
        "Tight coupling between the webhook and the sync job"},
       {"Split the handler into small focused functions",
        "Keep transport and business logic in separate modules",
        "Pass the client in instead of importing a global"}},
      // error-handling
      {{"Comprehensive error types with context",
        "Graceful degradation with fallbacks when the API is down",
        "Retry logic with exponential backoff is exactly right",
        "Error messages tell the user what to do next"},
       {"Missing retry logic on API calls", "Error messages lack context",
        "Generic catch block swallows the real error",
        "No exponential backoff when the API returns 429",
        "Webhook handler needs more specific error types",
        "Unhandled promise rejection in the sync loop",
        "Errors are logged with console.log instead of propagated"},
       {"Add retry logic with exponential backoff (base 1s, max 30s, 3 attempts)",
        "Include actionable context in every error message",
        "Use specific error types instead of a generic catch"}},
      // performance
      {{"Batches API calls sensibly", "Pagination is streamed instead of buffered",
        "Caching with a sensible TTL"},
       {"N+1 requests when listing orders", "No pagination, loads everything into memory",
        "Sequential API calls that could run in parallel",
        "Missing rate limiting on external APIs"},
       {"Paginate instead of loading everything", "Batch the lookups into one request",
        "Add a rate limiter in front of the API client"}},
      // security
      {{"Secrets come from the environment, never the code",
        "Webhook signatures verified before parsing", "Least-privilege OAuth scopes",
        "Validates every tool parameter with Zod schemas"},
       {"No input validation on tool parameters", "API key is read from a hardcoded string",
        "Webhook signature is not verified", "Tokens end up in the debug log",
        "Missing input sanitization on the search query"},
       {"Validate tool parameters with a Zod schema",
        "Verify the webhook signature before doing anything else",
        "Load secrets from the environment and never log them"}},
      // creativity
      {{"Fresh take on the onboarding flow", "Clever reuse of the existing components"},
       {"Feels like a copy of the template", "Safe but forgettable"},
       {"Try one bolder idea for the hero section"}},
      // completeness
      {{"Covers the full API surface from the spec", "All CRUD operations implemented"},
       {"Half the endpoints from the spec are missing", "Update and delete tools are stubs",
        "Pagination is only implemented for the first page"},
       {"Implement the remaining endpoints from the spec", "Finish the update and delete tools"}},
      // naming
      {{"Descriptive function names throughout", "Clear, consistent identifiers"},
       {"Function names are abbreviated and hard to read",
        "Variable names like d and tmp say nothing",
        "Misleading name: getOrders also mutates the cache",
        "Inconsistent naming convention, camelCase mixed with snake_case"},
       {"Rename abbreviated functions to descriptive names",
        "Pick one naming convention and stick to it"}},
      // dx
      {{"One command to run locally", "Sensible defaults, nothing to configure to start"},
       {"Setup needs five manual steps", "Error output is hard to debug locally",
        "No dry-run mode"},
       {"Add a single setup script", "Add a dry-run flag"}},
  }};
  return t;
}

constexpr std::array<std::string_view, 6> kQuestions = {
    "What happens here when the API returns a 429?",
    "Is this safe to retry?",
    "Why is this input not validated?",
    "Could this name say what it returns?",
    "Is this path covered by a test?",
    "Does this need to run on every request?"};
constexpr std::array<std::string_view, 4> kApprovedReasons = {
    "Meets the bar", "Ready to ship", "Good enough for this stage", "Clean and complete"};
constexpr std::array<std::string_view, 3> kDeferredReasons = {
    "Need more time to evaluate the design direction",
    "Want a second opinion on the security model", "Revisit tomorrow with fresh eyes"};

// ---- Swarm (seed 002) ------------------------------------------------------------------------

constexpr std::array<std::string_view, 4> kStrategies = {"file-based", "feature-based",
                                                         "layer-based", "risk-based"};

// Seed 002's detected strategies, in the order of learn::kDetectedStrategies, which names them.
enum Pattern : uint8_t {
  kSplitByFileType,
  kSplitByComponent,
  kSplitByLayer,
  kSplitByFeature,
  kOneFilePerSubtask,
  kSharedTypesFirst,
  kSeparateApiRoutes,
  kTestsAlongside,
  kTestsSeparate,
  kMaximizeParallel,
  kSequential,
  kDependencyChain,
  kNoPattern = 255,
};
static_assert(kDependencyChain + 1 == learn::kDetectedStrategies.size());
// How often a subtask planned with the pattern succeeds: file-type splits cause reservation
// conflicts (seed 002's anti-pattern example), feature splits with tests alongside rarely fail.
constexpr std::array<double, 12> kPatternSuccess = {0.20, 0.74, 0.62, 0.86, 0.30, 0.82,
                                                    0.72, 0.88, 0.55, 0.60, 0.70, 0.84};

struct Plan {
  int strategy;
  std::string_view text;  // contains the pattern phrases, as a planner would write them
  std::array<Pattern, 3> patterns;
};
const std::array<Plan, 12> kPlans = {{
    {0,
     "we'll split by file type, one file per subtask",
     {kSplitByFileType, kOneFilePerSubtask, kNoPattern}},
    {0,
     "split by file type and maximize parallelization across agents",
     {kSplitByFileType, kMaximizeParallel, kNoPattern}},
    {0,
     "one file per subtask, tests in separate subtask",
     {kOneFilePerSubtask, kTestsSeparate, kNoPattern}},
    {1,
     "split by feature with tests alongside implementation",
     {kSplitByFeature, kTestsAlongside, kNoPattern}},
    {1,
     "split by feature, handle shared types first, then maximize parallelization",
     {kSplitByFeature, kSharedTypesFirst, kMaximizeParallel}},
    {1,
     "split by component so each agent owns a feature end to end, tests alongside implementation",
     {kSplitByComponent, kTestsAlongside, kNoPattern}},
    {2,
     "split by layer (UI/logic/data) and separate API routes",
     {kSplitByLayer, kSeparateApiRoutes, kNoPattern}},
    {2,
     "handle shared types first, then split by layer (UI/logic/data)",
     {kSharedTypesFirst, kSplitByLayer, kNoPattern}},
    {2,
     "split by layer (UI/logic/data) with tests in separate subtask",
     {kSplitByLayer, kTestsSeparate, kNoPattern}},
    {3,
     "respect dependency chain: riskiest change first, sequential execution order",
     {kDependencyChain, kSequential, kNoPattern}},
    {3,
     "handle shared types first and respect dependency chain",
     {kSharedTypesFirst, kDependencyChain, kNoPattern}},
    {3,
     "sequential execution order for the migration, tests alongside implementation",
     {kSequential, kTestsAlongside, kNoPattern}},
}};
constexpr std::array<std::string_view, 6> kEpicTasks = {"Add OAuth",
                                                        "Add webhook retries",
                                                        "Add cursor pagination",
                                                        "Add rate limiting",
                                                        "Migrate to the 2025-07 API version",
                                                        "Add bulk export"};
constexpr std::array<std::string_view, 6> kCriteria = {"type_safe", "has_tests",  "small_diff",
                                                       "no_any",    "documented", "idempotent"};

enum ErrorType : uint8_t { kValidation, kTimeout, kConflict, kToolFailure, kUnknown };
constexpr std::array<std::string_view, 5> kErrorTypes = {"validation", "timeout", "conflict",
                                                         "tool_failure", "unknown"};
constexpr std::array<std::string_view, 5> kFailureModes = {
    "validation_error", "timeout", "file_conflict", "tool_failure", "unknown"};
struct ErrorText {
  std::array<std::string_view, 3> messages;
  std::array<std::string_view, 2> tools;
};
const std::array<ErrorText, 5> kErrorTexts = {{
    {{"Type error in src/auth.ts", "Missing import in src/session.ts",
      "Schema validation failed for OrderInput: customer_email is required"},
     {"typecheck", "zod"}},
    {{"Task exceeded the 10 minute limit", "Bulk query timed out after 30s",
      "Test suite did not finish within 15 minutes"},
     {"bash", "api_client"}},
    {{"File reservation conflict on src/types.ts", "Merge conflict in package.json",
      "Another agent holds the reservation for src/client.ts"},
     {"file_reserve", "git"}},
    {{"npm install failed with ERESOLVE", "Test runner crashed: out of memory",
      "Linter exited with code 2"},
     {"npm", "vitest"}},
    {{"Agent stopped responding", "Unexpected empty response from model",
      "Subtask ended without a result"},
     {"agent", "model"}},
}};
constexpr std::array<std::string_view, 5> kErrorContexts = {
    "After adding OAuth types", "While splitting the webhook handler",
    "During the first integration test run", "After rebasing on main",
    "While regenerating the API client"};
constexpr std::array<std::string_view, 4> kResolutions = {
    "Fixed the type and reran typecheck", "Retried after the reservation was released",
    "Pinned the dependency and reinstalled", "Raised the timeout and split the query"};

// ---- Corrections (seed 004) ------------------------------------------------------------------

struct CorrectionType {
  std::string_view name;
  int project;  // 0 jSeeker, 1 VIA
  double weight;
  double decline;  // how much of the weight is gone by the end (a learned rule stops the mistake)
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
};
const std::vector<CorrectionType>& CorrectionTypes() {
  static const std::vector<CorrectionType> t = {
      {"passive_to_active",
       0,
       0.28,
       0.7,
       {{"Responsible for leading the engineering team", "Led a 10-person engineering team"},
        {"Was involved in the migration of the billing system",
         "Migrated the billing system to Stripe, cutting failed charges by 18%"},
        {"Tasked with improving onboarding",
         "Redesigned onboarding, raising activation from 41% to 58%"},
        {"Responsible for managing vendor relationships",
         "Negotiated contracts with 12 vendors, saving $240K a year"}}},
      {"metric_vague",
       0,
       0.14,
       0.3,
       {{"Significantly increased revenue", "Increased revenue by $1.2M (14%) in 2024"},
        {"Reduced costs substantially", "Reduced cloud costs by 22% ($310K a year)"}}},
      {"excessive_detail",
       0,
       0.10,
       0.0,
       {{"Utilized a comprehensive, multi-faceted approach leveraging various cutting-edge "
         "technologies to significantly enhance overall system performance",
         "Cut API latency by 35%"},
        {"In this role I was responsible for a wide variety of different tasks including but not "
         "limited to code reviews, planning and mentoring",
         "Ran code reviews and mentored 4 engineers"}}},
      {"missing_detail",
       0,
       0.10,
       0.0,
       {{"Improved performance", "Cut p95 checkout latency from 900 ms to 320 ms"},
        {"Worked on the data pipeline",
         "Built the Kafka ingestion pipeline handling 2M events a day"}}},
      {"tone_mismatch",
       0,
       0.08,
       0.2,
       {{"Hey! Super excited to apply for this awesome role!!",
         "I am applying for the Senior Engineer role."},
        {"We crushed it and totally smashed our targets",
         "We exceeded our quarterly targets by 20%"}}},
      {"jargon_overuse",
       0,
       0.08,
       0.2,
       {{"Leveraged synergistic paradigms to operationalize cross-functional deliverables",
         "Coordinated the design and engineering teams to ship on time"},
        {"Implemented a microservices-based event-driven CQRS architecture",
         "Split the monolith into services that communicate through events"}}},
      {"formatting",
       0,
       0.08,
       0.0,
       {{"Skills: Python,Go,  Kubernetes ,AWS", "Skills: Python, Go, Kubernetes, AWS"},
        {"2019 - 2021 | Senior Engineer|Acme", "Senior Engineer, Acme (2019-2021)"}}},
      {"ats_keyword_missing",
       0,
       0.08,
       0.0,
       {{"Built backend services",
         "Built backend services in Python and Go on AWS (Lambda, DynamoDB)"}}},
      {"experience_inflated",
       0,
       0.04,
       0.0,
       {{"Architected the company's entire platform",
         "Designed the notification service used by the platform"}}},
      {"missing_section",
       0,
       0.03,
       0.0,
       {{"Experience, Education", "Summary, Experience, Skills, Education"}}},
      {"section_order",
       0,
       0.03,
       0.0,
       {{"Education, Skills, Experience", "Experience, Skills, Education"}}},
      {"bullet_structure",
       0,
       0.04,
       0.0,
       {{"Led the team. Shipped the app. Improved retention.",
         "- Led the team\n- Shipped the app\n- Improved retention by 9%"}}},
      {"claim_too_vague",
       1,
       0.35,
       0.5,
       {{"Company has good product",
         "Company's checkout API is used by 40% of Shopify Plus stores"},
        {"The market is growing fast", "The market grew 23% year over year in 2024 (Gartner)"}}},
      {"source_missing",
       1,
       0.25,
       0.0,
       {{"Revenue doubled last year", "Revenue doubled last year (2024 annual report, p. 12)"}}},
      {"claim_unsupported",
       1,
       0.20,
       0.0,
       {{"The product is the industry leader",
         "The product has the largest share of mid-market installs (BuiltWith, June 2025)"}}},
      {"factual_error", 1, 0.12, 0.0, {{"Founded in 2012 in Berlin", "Founded in 2014 in Munich"}}},
      {"jargon_overuse",
       1,
       0.08,
       0.0,
       {{"Best-in-class omnichannel solution that empowers stakeholders",
         "Sells an order management tool for online and in-store sales"}}},
  };
  return t;
}
constexpr std::array<std::string_view, 3> kUsers = {"alex", "jordan", "casey"};
constexpr std::array<std::string_view, 3> kResumeSections = {"experience", "summary", "skills"};

// ---- Loops (seed 003), rewards (seed 001), admin --------------------------------------------

constexpr std::array<std::string_view, 9> kRules = {
    "rule-retry-backoff",          "rule-zod-validation",
    "rule-specific-error-types",   "rule-no-any",
    "rule-jsdoc-public-api",       "anti-split-by-file-type",
    "rule-card-layout-dashboards", "rule-no-animations",
    "pattern-resume-active-voice"};
// Taste rules go stale (sam's preferences drift); hard engineering rules keep being confirmed.
constexpr std::array<double, 9> kRuleRetire = {0.05, 0.05, 0.1, 0.05, 0.15, 0.05, 0.35, 0.5, 0.1};
constexpr std::array<std::string_view, 4> kAuditNotes = {
    "Still matches recent reviews", "Reviewers no longer flag this",
    "Confirmed at the monthly rule audit", "Conflicts with newer feedback"};

// ---- Calendars -------------------------------------------------------------------------------

// When a process is active, as relative intensity per UTC hour, weekdays and weekends. Scaled so
// that the weekly mean is 1: `Advance(t, g)` then moves by g of wall time on average.
class Calendar {
 public:
  Calendar() = default;
  Calendar(const std::array<double, 24>& weekday, double weekend_factor) {
    double total = 0;
    for (int h = 0; h < 24; ++h) {
      weekday_[h] = weekday[h];
      weekend_[h] = weekday[h] * weekend_factor;
      total += 5 * weekday_[h] + 2 * weekend_[h];
    }
    const double scale = total > 0 ? 168.0 / total : 1.0;
    for (int h = 0; h < 24; ++h) {
      weekday_[h] *= scale;
      weekend_[h] *= scale;
    }
  }

  // The wall time by which `need` ms of intensity-weighted time has passed after t.
  int64_t Advance(int64_t t, double need) const {
    for (;;) {
      const int64_t day = FloorDiv(t, kDay);
      const int hour = static_cast<int>((t - day * kDay) / kHour);
      const int64_t hour_end = day * kDay + (hour + 1) * kHour;
      const int weekday = static_cast<int>(((day % 7) + 7 + 3) % 7);  // 1970-01-01: Thursday
      const double w = weekday >= 5 ? weekend_[hour] : weekday_[hour];
      const double capacity = static_cast<double>(hour_end - t) * w;
      if (w > 0 && need <= capacity) return t + static_cast<int64_t>(need / w);
      need -= capacity;
      t = hour_end;
    }
  }

 private:
  static int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && (a < 0)); }
  std::array<double, 24> weekday_{}, weekend_{};
};

// ---- The simulation --------------------------------------------------------------------------

struct Item {  // one version of a work product
  int64_t created = 0;
  uint64_t prompt_hash = 0;
  uint32_t product = 0;
  uint32_t generation_ms = 0;
  std::array<float, kDimCount> q{};  // true quality; reviewers see it through their bias
  float prediction = 0, confidence = 0;
  uint16_t criticized = 0;  // dims the last review complained about: the revision fixes them
  uint8_t version = 1, type = 0, server = 0, stage = 0, reviewer = 0, domain = 0, feature = 0;
  uint8_t model = 0, iterations = 1, priority = 0;
  bool external = false;  // reviewed with an inline WorkProductRef, never recorded as work
};

struct Session {
  int64_t start = 0;
  uint32_t number = 0, salt = 0, date = 0;
  uint8_t reviewer = 0, size = 0;
  bool mobile = false;
};

struct Subtask {
  int64_t start = 0, duration = 0;
  uint32_t epic = 0;
  std::array<model::Uuid, 2> error_ids{};
  uint8_t index = 0, plan = 0, server = 0, domain = 0, task = 0;
  uint8_t errors = 0, resolved = 0, retries = 0, criteria = 0, files = 0, message = 0;
  std::array<uint8_t, 2> error_types{};
  bool success = false;
};

struct CorrectionSession {
  int64_t start = 0;
  uint32_t date = 0;
  uint8_t user = 0, project = 0, size = 0, model = 0;
};

struct Loop {
  uint32_t number = 0;
  uint8_t iteration = 0, server = 0, domain = 0;
  double coverage = 0, quality = 0, security = 0, types = 0, docs = 0;
  int vulnerabilities = 0, type_errors = 0, tests = 0;
};

enum Step : uint8_t {
  kWorkStep,
  kSessionStep,
  kReviewStep,
  kEpicStep,
  kErrorStep,
  kResolveStep,
  kOutcomeStep,
  kRewardStep,
  kCorrectionSessionStep,
  kCorrectionStep,
  kLoopStartStep,
  kLoopStep,
  kAdminStep,
};

struct Scheduled {
  int64_t t;
  uint64_t seq;  // ties in time keep scheduling order, so the output is deterministic
  Step step;
  uint32_t a, b;
};
struct Later {
  bool operator()(const Scheduled& x, const Scheduled& y) const {
    return x.t != y.t ? x.t > y.t : x.seq > y.seq;
  }
};

// Shares of the event mix. Feedback outnumbers work about 2:1: second opinions, revisits of
// deferred items and reviews of products submitted outside the pipeline (inline refs).
constexpr double kShareFeedback = 0.42, kShareWork = 0.23, kShareSwarm = 0.19, kShareReward = 0.08,
                 kShareCorrection = 0.05, kShareLoop = 0.02, kShareAdmin = 0.01;
constexpr std::array<double, 10> kSessionSizeWeights = {8, 12, 15, 15, 13, 11, 9, 7, 5, 5};
// Expected lines per episode, so each process's rate gives its share of the mix.
constexpr double kSwarmLinesPerEpic = 3.5 * 1.45;
constexpr double kCorrectionsPerSession = 2.15;
constexpr double kIterationsPerLoop = 3.3;

class Generator {
 public:
  // Lines go to *out, or to *sink in pieces of about chunk_bytes when sink is given.
  Generator(const GenOptions& o, std::string* out, size_t chunk_bytes,
            const std::function<void(std::string_view)>* sink)
      : options_(o),
        out_(out),
        rng_(o.seed),
        chunk_bytes_(std::clamp<size_t>(chunk_bytes, 4096, size_t{64} << 20)),
        sink_(sink) {
    buffer_ = std::make_unique<char[]>(chunk_bytes_ + kMaxLineBytes);
    w_.Reset(buffer_.get());
    span_ms_ = std::max<int64_t>(1, o.span_days) * kDay;
    end_ms_ = o.start_unix_ms + span_ms_;
    const double per_ms = static_cast<double>(o.events) / static_cast<double>(span_ms_);
    const auto& reviewers = Reviewers();
    double mean_session = 0, weight = 0;
    for (size_t i = 0; i < kSessionSizeWeights.size(); ++i) {
      mean_session += static_cast<double>(i + 1) * kSessionSizeWeights[i];
      weight += kSessionSizeWeights[i];
    }
    mean_session /= weight;
    for (size_t r = 0; r < reviewers.size(); ++r) {
      const Reviewer& rv = reviewers[r];
      reviewer_cal_[r] = Calendar(rv.weekday_hours, rv.weekend);
      const double rate = kShareFeedback * rv.share * per_ms;
      session_gap_[r] = mean_session / rate;
      // At a million events a reviewer "reviews" one item every few seconds; squeeze the pauses
      // inside a session so sessions stay shorter than the gaps between them.
      const double per_day = rate * kDay;
      const double natural_ms = 90.0 * kSecond;
      compress_[r] = Clamp(0.5 * (8.0 * kHour / std::max(per_day, 1e-9)) / natural_ms, 0.02, 1.0);
    }
    agent_cal_ = Calendar(Hours(7, 19, 1.4, {}, 0.35), 0.6);
    human_cal_ = Calendar(Hours(9, 18, 1.0, {{8, 0.4}, {19, 0.4}}), 0.1);
    flat_cal_ = Calendar(Hours(0, 23, 1.0), 1.0);
    work_gap_ = 1.0 / (kShareWork * per_ms);
    epic_gap_ = kSwarmLinesPerEpic / (kShareSwarm * per_ms);
    reward_gap_ = 1.0 / (kShareReward * per_ms);
    correction_gap_ = kCorrectionsPerSession / (kShareCorrection * per_ms);
    loop_gap_ = kIterationsPerLoop / (kShareLoop * per_ms);
    admin_gap_ = 1.0 / (kShareAdmin * per_ms);
  }

  void Run() {
    if (options_.events == 0) return;
    const int64_t t0 = options_.start_unix_ms;
    now_ = t0;
    // The history opens with a work event and its reviewer's first session, so even a short
    // history shows the loop the engine learns from: work, then feedback naming it.
    EmitWork(t0);
    Schedule(Next(agent_cal_, t0, work_gap_), kWorkStep);
    const int first = items_.front().reviewer;
    for (size_t r = 0; r < Reviewers().size(); ++r) {
      const double gap =
          static_cast<int>(r) == first ? std::min(session_gap_[r], 1.0 * kHour) : session_gap_[r];
      Schedule(Next(reviewer_cal_[r], t0, gap), kSessionStep, static_cast<uint32_t>(r));
    }
    Schedule(Next(agent_cal_, t0, epic_gap_), kEpicStep);
    Schedule(Next(flat_cal_, t0, reward_gap_), kRewardStep);
    Schedule(Next(human_cal_, t0, correction_gap_), kCorrectionSessionStep);
    Schedule(Next(flat_cal_, t0, loop_gap_), kLoopStartStep);
    Schedule(Next(human_cal_, t0, admin_gap_), kAdminStep);

    while (emitted_ < options_.events) {
      const Scheduled s = heap_.top();
      heap_.pop();
      now_ = s.t;
      switch (s.step) {
        case kWorkStep:
          EmitWork(s.t);
          Schedule(Next(agent_cal_, s.t, work_gap_), kWorkStep);
          break;
        case kSessionStep:
          StartSession(s.t, static_cast<int>(s.a));
          break;
        case kReviewStep:
          EmitReview(s.t, s.a, s.b);
          break;
        case kEpicStep:
          PlanEpic(s.t);
          Schedule(Next(agent_cal_, s.t, epic_gap_), kEpicStep);
          break;
        case kErrorStep:
          EmitError(s.t, s.a, s.b);
          break;
        case kResolveStep:
          EmitResolution(s.t, s.a, s.b);
          break;
        case kOutcomeStep:
          EmitOutcome(s.t, s.a);
          break;
        case kRewardStep:
          EmitReward(s.t);
          Schedule(Next(flat_cal_, s.t, reward_gap_), kRewardStep);
          break;
        case kCorrectionSessionStep:
          StartCorrections(s.t);
          break;
        case kCorrectionStep:
          EmitCorrection(s.t, s.a, s.b);
          break;
        case kLoopStartStep:
          StartLoop(s.t);
          break;
        case kLoopStep:
          EmitLoopIteration(s.t, s.a);
          break;
        case kAdminStep:
          EmitAdmin(s.t);
          Schedule(Next(human_cal_, s.t, admin_gap_), kAdminStep);
          break;
      }
      if (static_cast<size_t>(w_.pos() - buffer_.get()) >= chunk_bytes_) Flush();
    }
    Flush();
  }

 private:
  // ---- plumbing ----

  void Flush() {
    const std::string_view chunk(buffer_.get(), static_cast<size_t>(w_.pos() - buffer_.get()));
    w_.Reset(buffer_.get());
    if (chunk.empty()) return;
    if (sink_ != nullptr) {
      (*sink_)(chunk);
      return;
    }
    if (!reserved_) {
      // One allocation for the whole history, sized from the lines so far, instead of doubling
      // (and copying) a string of hundreds of MB.
      reserved_ = true;
      const double per_line = static_cast<double>(chunk.size()) / static_cast<double>(emitted_);
      // Generously: later lines run longer than the first ones, and pages never written cost
      // nothing.
      const double rest = static_cast<double>(options_.events - emitted_) * per_line * 1.6;
      out_->reserve(out_->size() + chunk.size() + static_cast<size_t>(rest) + 4096);
    }
    out_->append(chunk);
  }
  // Nothing is scheduled past the end of the span: a short history that ran long would otherwise
  // drift towards (or past) the present, where the validator refuses timestamps.
  void Schedule(int64_t t, Step step, uint32_t a = 0, uint32_t b = 0) {
    heap_.push({std::clamp(t, now_, std::max(now_, end_ms_)), seq_++, step, a, b});
  }
  int64_t Next(const Calendar& cal, int64_t t, double mean_gap) {
    return cal.Advance(t, rng_.Exp(mean_gap) * Pace(t));
  }
  // With few events, chance alone can leave a history bunched in its first weeks or cut off
  // early; this stretches or squeezes the gaps so the lines still spread over the whole span.
  // Large histories keep their natural rhythm (weekends included), which the rates already hit.
  double Pace(int64_t t) const {
    if (options_.events >= 20000) return 1.0;
    const double expected = (1.0 - Progress(t)) * static_cast<double>(options_.events);
    const double remaining = static_cast<double>(options_.events - emitted_);
    return Clamp(expected / std::max(1.0, remaining), 0.1, 10.0);
  }
  double Progress(int64_t t) const {
    return Clamp(static_cast<double>(t - options_.start_unix_ms) / static_cast<double>(span_ms_),
                 0.0, 1.0);
  }
  static int HourOf(int64_t t) {
    int64_t ms = t % kDay;
    if (ms < 0) ms += kDay;
    return static_cast<int>(ms / kHour);
  }
  // Starts a line: kind, a v7 id for the timestamp, the timestamp. Returns the id.
  model::Uuid Begin(std::string_view kind, int64_t t) {
    // RFC 9562 v7: 48-bit milliseconds big-endian, version 7, variant 10, the rest random.
    model::Uuid id;
    const uint64_t hi = (static_cast<uint64_t>(t) << 16) | 0x7000 | (rng_.Next() >> 52);
    const uint64_t lo = (rng_.Next() >> 2) | (uint64_t{2} << 62);
    for (int i = 0; i < 8; ++i) {
      id.bytes[i] = static_cast<uint8_t>(hi >> (56 - 8 * i));
      id.bytes[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
    }
    w_.Object();
    w_.Key("kind").Lit(kind);
    w_.Key("id").Uuid(id);
    w_.Key("timestamp").Timestamp(t);
    return id;
  }
  void End() {
    w_.EndObject();
    w_.EndLine();
    ++emitted_;
  }
  static uint32_t Yyyymmdd(int64_t t) {
    const model::CivilTime c = model::ToCivil(t);
    return static_cast<uint32_t>(c.year * 10000 + c.month * 100 + c.day);
  }
  void ProductId(const Item& it) {
    w_.BeginStr();
    w_.Raw(kServers[it.server].slug);
    w_.Raw("-");
    w_.Raw(kTypes[it.type].slug);
    w_.Raw("-");
    w_.RawNum(it.product, 5);
    w_.EndStr();
  }

  // ---- work products ----

  static double Curve(double p) { return (1 - std::exp(-2.5 * p)) / (1 - std::exp(-2.5)); }

  double ExpectedScore(const Item& it) const {
    double sum = 0;
    int n = 0;
    for (int d = 0; d < kDimCount; ++d) {
      if (kTypes[it.type].dims & (1u << d)) {
        sum += it.q[d];
        ++n;
      }
    }
    return n ? sum / n : 6.0;
  }

  // Buba's self-assessment (seed 000): it ranks work roughly right but scores it
  // high, and grows less optimistic as the history goes on.
  void Predict(Item* it, double p) {
    const double truth = ExpectedScore(*it) - 0.2;
    it->prediction =
        static_cast<float>(Clamp(truth + (1.1 - 0.7 * p) + 0.7 * rng_.Normal(), 1.0, 10.0));
    // Most optimistic in the middle: "50-69% raw -> 35% actual", "90%+ raw -> 78% actual".
    const double approve = 1.0 / (1.0 + std::exp(-1.4 * (truth - 6.5)));
    const double optimism = (0.36 - 0.2 * approve) * (1.0 - 0.4 * p);
    it->confidence =
        static_cast<float>(Clamp(approve + optimism + 0.06 * rng_.Normal(), 0.05, 0.98));
  }

  uint32_t NewItem(int64_t t, bool external, int reviewer) {
    const double p = Progress(t);
    Item it;
    it.created = t;
    it.product = ++products_;
    it.server = static_cast<uint8_t>(rng_.Weighted(kServerWeights));
    it.type = static_cast<uint8_t>(rng_.Weighted(kTypeWeights));
    it.stage = static_cast<uint8_t>(rng_.Weighted(kTypes[it.type].stage_weights));
    if (reviewer >= 0) {
      it.reviewer = static_cast<uint8_t>(reviewer);
    } else {
      std::array<double, 4> w;
      for (int r = 0; r < 4; ++r) w[r] = kTypes[it.type].affinity[r] * Reviewers()[r].share;
      it.reviewer = static_cast<uint8_t>(rng_.Weighted(w));
    }
    it.domain = static_cast<uint8_t>(rng_.Below(4));
    it.feature = static_cast<uint8_t>(rng_.Below(kFeatures.size()));
    it.model =
        static_cast<uint8_t>(rng_.Chance(0.1) ? 2 : (rng_.Chance(p > 0.6 ? 0.7 : 0.05) ? 1 : 0));
    it.priority = static_cast<uint8_t>(rng_.Weighted(std::array<double, 4>{0.12, 0.6, 0.2, 0.08}));
    it.external = external;
    const Server& s = kServers[it.server];
    const double overall = 0.7 * rng_.Normal();
    const double c = Curve(p);
    for (int d = 0; d < kDimCount; ++d) {
      double q = kQualityStart[d] + (kQualityEnd[d] - kQualityStart[d]) * c + s.offset + overall +
                 0.8 * rng_.Normal();
      if (d == kSecurity) q += s.security;
      if (d == kErrorHandling) q += s.errors;
      it.q[d] = static_cast<float>(Clamp(q, 1.0, 10.0));
    }
    Stamp(&it, p);
    items_.push_back(it);
    return static_cast<uint32_t>(items_.size() - 1);
  }

  uint32_t Revise(uint32_t src, int64_t t) {
    Item it = items_[src];
    it.created = t;
    ++it.version;
    it.priority = static_cast<uint8_t>(rng_.Chance(0.3) ? 3 : 2);
    for (int d = 0; d < kDimCount; ++d) {
      const bool fix = it.criticized & (1u << d);
      const double gain = fix ? 1.3 + 0.5 * rng_.Normal() : 0.2 + 0.25 * rng_.Normal();
      it.q[d] = static_cast<float>(Clamp(it.q[d] + gain, 1.0, 10.0));
    }
    it.criticized = 0;
    if (it.stage < 3 && rng_.Chance(0.3)) ++it.stage;
    Stamp(&it, Progress(t));
    it.iterations = static_cast<uint8_t>(std::min(9, it.iterations + 1));
    items_.push_back(it);
    return static_cast<uint32_t>(items_.size() - 1);
  }

  void Stamp(Item* it, double p) {
    Predict(it, p);
    it->prompt_hash = rng_.Next();
    it->generation_ms = static_cast<uint32_t>(Clamp(rng_.LogNormal(42000, 0.6), 2000, 900000));
    it->iterations = static_cast<uint8_t>(1 + rng_.Below(3));
  }

  void WriteRef(const Item& it, bool alternative) {
    static constexpr std::array<std::string_view, 3> kModels = {"claude-sonnet-4",
                                                                "claude-sonnet-4.5", "gpt-4.1"};
    const Server& s = kServers[it.server];
    const std::string_view domain = s.domains[it.domain];
    w_.Object();
    w_.Key("type").Lit(kTypes[it.type].name);
    w_.Key("id");
    ProductId(it);
    w_.Key("version").BeginStr();
    w_.Raw("v");
    w_.RawNum(it.version);
    if (alternative) w_.Raw("-alt");
    w_.EndStr();
    w_.Key("path").BeginStr();
    switch (it.type) {
      case 0:
        w_.Raw({"servers/", s.slug, "/src/tools/", domain, ".ts"});
        break;
      case 1:
        w_.Raw({"servers/", s.slug, "/src/", domain, "-client.ts"});
        break;
      case 2:
        w_.Raw({"servers/", s.slug, "/test/", domain, ".test.ts"});
        break;
      case 3:
        w_.Raw({"servers/", s.slug, "/README.md"});
        break;
      case 4:
        w_.Raw({"design/", s.slug, "/", domain, "-dashboard.fig"});
        break;
      default:
        w_.Raw({".github/workflows/", s.slug, "-deploy.yml"});
        break;
    }
    w_.EndStr();
    w_.Key("summary").BeginStr();
    switch (it.type) {
      case 0:
        w_.Raw({s.name, " MCP server: ", domain, " tools with ", kFeatures[it.feature]});
        break;
      case 1:
        w_.Raw({s.name, " ", domain, " client module with ", kFeatures[it.feature]});
        break;
      case 2:
        w_.Raw({"Integration tests for the ", s.name, " ", domain, " tools"});
        break;
      case 3:
        w_.Raw({"Setup guide and tool reference for the ", s.name, " MCP server"});
        break;
      case 4:
        w_.Raw({s.name, " ", domain, " dashboard: card layout and empty states"});
        break;
      default:
        w_.Raw({"CI and deploy pipeline for the ", s.name, " MCP server"});
        break;
    }
    w_.EndStr();
    w_.Key("bubaConfidence").Num(it.confidence, 2);
    w_.Key("bubaScorePrediction").Num(it.prediction, 1);
    w_.Key("generationContext").Object();
    w_.Key("promptHash").BeginStr();
    w_.RawHex(it.prompt_hash, 16);
    w_.EndStr();
    w_.Key("memorySnapshot").Array();
    w_.Lit("memory/feedback-patterns.md");
    w_.Lit("memory/quality-standards.md");
    w_.BeginStr();
    w_.Raw("memory/");
    w_.Raw(Reviewers()[it.reviewer].id);
    w_.Raw("-preferences.md");
    w_.EndStr();
    if (Progress(it.created) > 0.3) w_.Lit("memory/improvement-log.md");
    w_.EndArray();
    w_.Key("modelUsed").Lit(kModels[it.model]);
    w_.Key("generationTimeMs").Int(it.generation_ms);
    w_.Key("iterationCount").Int(it.iterations);
    w_.EndObject();
    w_.EndObject();
  }

  void EmitWork(int64_t t) {
    static constexpr std::array<std::string_view, 4> kPriorities = {"low", "normal", "high",
                                                                    "urgent"};
    uint32_t idx;
    if (!revisions_.empty() && (revisions_.size() > 8 || rng_.Chance(0.75))) {
      const uint32_t src = revisions_.front();
      revisions_.pop_front();
      idx = Revise(src, t);
    } else {
      idx = NewItem(t, false, -1);
    }
    const Item& it = items_[idx];
    if (rng_.Chance(0.2) || agent_run_ == 0) ++agent_run_;
    Begin("work", t);
    w_.Key("workProduct");
    WriteRef(it, false);
    w_.Key("sessionId").BeginStr();
    w_.Raw("buba-run-");
    w_.RawNum(agent_run_, 6);
    w_.EndStr();
    w_.Key("pipelineStage").Lit(kStages[it.stage]);
    w_.Key("mcpServerType").Lit(kServers[it.server].slug);
    w_.Key("priority").Lit(kPriorities[it.priority]);
    End();
    pending_[it.reviewer].push_back(idx);
    recent_work_[recent_work_count_++ % recent_work_.size()] = idx;
  }

  // ---- review sessions ----

  void StartSession(int64_t t, int reviewer) {
    Session s;
    s.start = t;
    s.date = Yyyymmdd(t);
    s.number = ++session_count_;
    s.salt = static_cast<uint32_t>(rng_.Next() & 0xFFFFFF);
    s.reviewer = static_cast<uint8_t>(reviewer);
    s.size = static_cast<uint8_t>(1 + rng_.Weighted(kSessionSizeWeights));
    s.mobile = rng_.Chance(0.08);
    sessions_.push_back(s);
    recent_sessions_[recent_session_count_++ % recent_sessions_.size()] =
        static_cast<uint32_t>(sessions_.size() - 1);
    Schedule(Next(reviewer_cal_[reviewer], t, session_gap_[reviewer]), kSessionStep,
             static_cast<uint32_t>(reviewer));
    EmitReview(t, static_cast<uint32_t>(sessions_.size() - 1), 0);
  }

  // Which item the reviewer opens: their own queue, else a colleague's backlog, else a second
  // opinion on something recently reviewed, else a product submitted outside the pipeline.
  uint32_t ChooseItem(int64_t t, int r, bool* primary) {
    *primary = false;
    if (!pending_[r].empty()) {
      const uint32_t idx = pending_[r].front();
      pending_[r].pop_front();
      *primary = true;
      return idx;
    }
    size_t longest = 0;
    int other = -1;
    for (int o = 0; o < 4; ++o) {
      if (o != r && pending_[o].size() > longest) {
        longest = pending_[o].size();
        other = o;
      }
    }
    if (other >= 0 && longest > 2) {
      const uint32_t idx = pending_[other].front();
      pending_[other].pop_front();
      items_[idx].reviewer = static_cast<uint8_t>(r);
      *primary = true;
      return idx;
    }
    const size_t ring = std::min<size_t>(reviewed_count_, reviewed_.size());
    if (ring > 0 && rng_.Chance(0.88)) {
      const uint32_t idx = reviewed_[rng_.Below(static_cast<uint32_t>(ring))];
      if (items_[idx].reviewer != r) return idx;
    }
    return NewItem(t, true, r);
  }

  void EmitReview(int64_t t, uint32_t si, uint32_t pos) {
    const Session s = sessions_[si];
    const int r = s.reviewer;
    const Reviewer& rv = Reviewers()[r];
    const double p = Progress(t);
    const int hour = HourOf(t);
    const bool evening = hour >= 19 || hour < 6;
    bool primary;
    const uint32_t idx = ChooseItem(t, r, &primary);
    const Item it = items_[idx];  // a copy: items_ may grow below
    const bool inline_ref = it.external || rng_.Chance(0.05);

    // Scores: the reviewer's focus dimensions that apply, plus a few others.
    const uint16_t relevant = kTypes[it.type].dims;
    uint16_t chosen = rv.focus & relevant;
    int want = 3 + static_cast<int>(rng_.Below(3)) - (evening || s.mobile ? 1 : 0);
    const int available = std::popcount(relevant);
    while (std::popcount(chosen) < std::min(want, available)) {
      std::array<int, kDimCount> candidates;
      int n = 0;
      for (int d = 0; d < kDimCount; ++d) {
        if ((relevant & ~chosen) & (1u << d)) candidates[n++] = d;
      }
      chosen |= static_cast<uint16_t>(1u << candidates[rng_.Below(static_cast<uint32_t>(n))]);
    }
    std::array<int, kDimCount> score{};
    std::array<int, kDimCount> dims{};
    int n_scores = 0;
    double sum = 0;
    const double noise = evening ? 1.2 : 0.7 + 0.04 * pos;
    for (int d = 0; d < kDimCount; ++d) {
      if (!(chosen & (1u << d))) continue;
      score[d] =
          static_cast<int>(Clamp(Round(it.q[d] + rv.bias[d] + noise * rng_.Normal()), 1, 10));
      dims[n_scores++] = d;
      sum += score[d];
    }
    const double mean = sum / n_scores;
    // Dimensions from worst to best; the reviewer's own concerns first among equals.
    std::array<int, kDimCount> order = dims;
    const auto worse = [&](int a, int b) {
      if (score[a] != score[b]) return score[a] < score[b];
      return ((rv.focus >> a) & 1) > ((rv.focus >> b) & 1);
    };
    for (int i = 1; i < n_scores; ++i) {  // insertion sort: stable, and at most 13 elements
      for (int j = i; j > 0 && worse(order[j], order[j - 1]); --j)
        std::swap(order[j], order[j - 1]);
    }
    const int worst = order[0], best = order[n_scores - 1];

    // Decision: the reviewer's hard gates first, then the overall bar.
    Decision decision = kApproved;
    bool gated = false;
    for (const Gate& g : rv.gates) {
      if ((chosen & (1u << g.dim)) && score[g.dim] < g.below && rng_.Chance(g.p)) {
        decision = g.outcome;
        gated = true;
        break;
      }
    }
    if (!gated) {
      if (mean >= rv.approve_at) {
        decision = rng_.Chance(0.04) ? kNeedsWork : kApproved;
      } else if (mean < rv.approve_at - 1.5) {
        decision = rng_.Chance(0.7) ? kRejected : kNeedsWork;
      } else {
        const double u = rng_.U();
        decision = u < 0.6 ? kNeedsWork : u < 0.92 ? kApproved : kDeferred;
      }
    }
    // Seed 000: design decisions get deferred when tired, in the evening or deep in a session.
    if (r == 2 && decision != kApproved && (evening || pos >= 6) && rng_.Chance(0.35)) {
      decision = kDeferred;
    }

    const auto& texts = Texts();
    // The reviewer's main complaint reads the same in the reason, the blockers and the free text.
    const std::string_view headline = rng_.Pick(texts[worst].disliked);
    const bool has_second = n_scores > 1 && score[order[1]] <= 5;
    const std::string_view second = has_second ? rng_.Pick(texts[order[1]].disliked) : headline;
    Begin("feedback", t);
    w_.Key("sessionId").BeginStr();
    w_.Raw("sess-");
    w_.Raw(rv.id);
    w_.Raw("-");
    w_.RawNum(s.date, 8);
    w_.Raw("-");
    w_.RawNum(s.number, 5);
    w_.EndStr();
    w_.Key("modalId").BeginStr();
    w_.Raw("modal-");
    w_.RawHex(s.salt, 6);
    w_.Raw("-");
    w_.RawNum(pos + 1);
    w_.EndStr();
    const bool diff_view = p >= 0.4;  // seed 000: reviews switched to diff-based presentation
    w_.Key("modalVersion").Lit(diff_view ? "review-modal-3" : "review-modal-2");
    w_.Key("workProduct");
    if (inline_ref) {
      WriteRef(it, false);
    } else {
      w_.Object();
      w_.Key("id");
      ProductId(it);
      w_.Key("version").BeginStr();
      w_.Raw("v");
      w_.RawNum(it.version);
      w_.EndStr();
      w_.EndObject();
    }
    w_.Key("pipelineStage").Lit(kStages[it.stage]);
    w_.Key("mcpServerType").Lit(kServers[it.server].slug);
    w_.Key("reviewerId").Lit(rv.id);

    w_.Key("decision").Object();
    w_.Key("decision").Lit(kDecisionNames[decision]);
    if (decision == kApproved) {
      w_.Key("reason").Lit(rng_.Pick(kApprovedReasons));
    } else if (decision == kDeferred) {
      w_.Key("reason").Lit(rng_.Pick(kDeferredReasons));
    } else {
      w_.Key("reason").Lit(headline);
      const int low = score[worst];
      w_.Key("severity")
          .Lit(low <= 2   ? "critical"
               : low <= 4 ? "major"
               : low <= 5 ? "moderate"
                          : "minor");
      if (decision == kRejected) {
        w_.Key("blockers").Array();
        w_.Lit(headline);
        if (has_second) w_.Lit(second);
        w_.EndArray();
      }
      w_.Key("suggestions").Array();
      w_.Lit(rng_.Pick(texts[worst].fixes));
      if (n_scores > 1 && score[order[1]] <= 6 && rng_.Chance(0.5)) {
        w_.Lit(rng_.Pick(texts[order[1]].fixes));
      }
      w_.EndArray();
    }
    w_.EndObject();

    w_.Key("scores").Array();
    for (int i = 0; i < n_scores; ++i) {
      const int d = dims[i];
      w_.Object();
      w_.Key("dimension").Lit(DimName(d));
      w_.Key("score").Int(score[d]);
      if (score[d] <= 4 && rng_.Chance(0.3)) w_.Key("comment").Lit(rng_.Pick(texts[d].disliked));
      w_.EndObject();
    }
    w_.EndArray();

    // Free text: less of it in the evening, on a phone and late in a session.
    bool wrote_text = false;
    const double p_text = 0.72 + (decision == kRejected ? 0.15 : 0) - (evening ? 0.25 : 0) -
                          (s.mobile ? 0.3 : 0) - 0.03 * pos;
    if (rng_.Chance(p_text)) {
      const bool liked = score[best] >= 7 && rng_.Chance(0.85);
      const bool disliked = score[worst] <= 6;
      const bool notes = rng_.Chance(0.45) || (!liked && !disliked);
      wrote_text = true;
      w_.Key("freeText").Object();
      if (liked) {
        w_.Key("liked").BeginStr();
        w_.Esc(rng_.Pick(texts[best].liked));
        w_.Raw(".");
        w_.EndStr();
      }
      if (disliked) {
        w_.Key("disliked").BeginStr();
        w_.Esc(headline);
        w_.Raw(".");
        if (has_second && rng_.Chance(0.5)) {
          w_.Raw(" ");
          w_.Esc(second);
          w_.Raw(".");
        }
        w_.EndStr();
      }
      if (notes) {
        w_.Key("generalNotes")
            .Lit(decision == kApproved ? rng_.Pick(rv.notes_positive)
                                       : rng_.Pick(rv.notes_negative));
      }
      w_.EndObject();
    }

    bool wrote_comparison = false;
    if (rng_.Chance(0.04)) {
      wrote_comparison = true;
      Item alt = it;
      // The alternative is another design: another feature, judged with the reviewers' taste.
      alt.feature = static_cast<uint8_t>((it.feature + 1 + rng_.Below(kFeatures.size() - 1)) %
                                         kFeatures.size());
      const double taste = kFeatureTaste[alt.feature] - kFeatureTaste[it.feature];
      for (int d = 0; d < kDimCount; ++d) {
        alt.q[d] = static_cast<float>(Clamp(it.q[d] + taste + 1.1 * rng_.Normal(), 1.0, 10.0));
      }
      Predict(&alt, p);
      alt.prompt_hash = rng_.Next();
      double qa = 0, qb = 0;
      for (int i = 0; i < n_scores; ++i) {
        qa += it.q[dims[i]];
        qb += alt.q[dims[i]];
      }
      qa /= n_scores;
      qb /= n_scores;
      const double gap = std::fabs(qa - qb);
      w_.Key("comparison").Object();
      w_.Key("optionA");
      WriteRef(it, false);
      w_.Key("optionB");
      WriteRef(alt, true);
      w_.Key("preferred")
          .Lit(qa >= 7.5 && qb >= 7.5 ? "both-good"
               : qa < 5 && qb < 5     ? "neither"
               : qa >= qb             ? "A"
                                      : "B");
      w_.Key("reason").Lit(qa >= qb ? rng_.Pick(texts[best].liked)
                                    : rng_.Pick(texts[worst].disliked));
      w_.Key("preferenceStrength")
          .Lit(gap < 0.5   ? "slight"
               : gap < 1.2 ? "moderate"
               : gap < 2   ? "strong"
                           : "overwhelming");
      w_.Key("dimensions").Array();
      for (int i = 0; i < std::min(n_scores, 3); ++i) {
        const int d = dims[i];
        const double delta = it.q[d] - alt.q[d];
        w_.Object();
        w_.Key("dimension").Lit(DimName(d));
        w_.Key("winner").Lit(std::fabs(delta) < 0.3 ? "tie" : delta > 0 ? "A" : "B");
        w_.EndObject();
      }
      w_.EndArray();
      w_.EndObject();
    }

    bool wrote_annotations = false;
    if (IsCode(it.type) && rng_.Chance(decision == kRejected ? 0.4 : 0.18)) {
      wrote_annotations = true;
      const int count = 1 + static_cast<int>(rng_.Below(3));
      w_.Key("annotations").Array();
      uint32_t line = 8 + rng_.Below(40);
      for (int i = 0; i < count; ++i) {
        const int d = i == 0           ? worst
                      : i == count - 1 ? best
                                       : dims[rng_.Below(static_cast<uint32_t>(n_scores))];
        const int sc = score[d];
        const uint32_t start = line + rng_.Below(60);
        const uint32_t end = start + rng_.Below(20);
        line = end + 1;
        w_.Object();
        std::string_view type, text, severity;
        if (sc <= 5) {
          type = "criticism", text = rng_.Pick(texts[d].disliked);
          severity = sc <= 2 ? "critical" : sc <= 3 ? "major" : "minor";
        } else if (sc >= 8) {
          type = "praise", text = rng_.Pick(texts[d].liked);
        } else if (rng_.Chance(0.7)) {
          type = "suggestion", text = rng_.Pick(texts[d].fixes), severity = "nit";
        } else {
          type = "question", text = rng_.Pick(kQuestions);
        }
        w_.Key("type").Lit(type);
        w_.Key("target").Object();
        w_.Key("file").BeginStr();
        w_.Raw("servers/");
        w_.Raw(kServers[it.server].slug);
        w_.Raw(it.type == 2 ? "/test/" : "/src/");
        w_.Raw(kServers[it.server].domains[it.domain]);
        w_.Raw(it.type == 2 ? ".test.ts" : ".ts");
        w_.EndStr();
        w_.Key("lineStart").Int(start);
        w_.Key("lineEnd").Int(end);
        w_.EndObject();
        w_.Key("text").Lit(text);
        if (!severity.empty()) w_.Key("severity").Lit(severity);
        w_.Key("category").Lit(DimName(d));
        w_.EndObject();
      }
      w_.EndArray();
    }

    bool wrote_confidence = false;
    std::string_view level;
    if (rng_.Chance(0.25)) {
      wrote_confidence = true;
      const double margin = std::fabs(mean - rv.approve_at);
      level = margin < 0.5   ? (rng_.Chance(0.2) ? "very-unsure" : "somewhat-unsure")
              : margin < 1.5 ? "fairly-sure"
                             : "very-sure";
      const bool security_doubt =
          (chosen & Bit(kSecurity)) && r != 0 &&
          (score[kSecurity] <= 5 || (SecuritySensitive(it.server) && rng_.Chance(0.3)));
      w_.Key("confidence").Object();
      w_.Key("level").Lit(level);
      w_.Key("wouldDelegateToAI").Bool(decision == kApproved && mean >= 7.5 && rng_.Chance(0.7));
      w_.Key("needsExpertReview").Bool(security_doubt);
      w_.EndObject();
    }

    // Decision time: quick approvals, slow deliberation; security-sensitive work and the old
    // full-file presentation take longer; evenings are fast and careless.
    static constexpr std::array<double, 4> kMedianMs = {35000, 210000, 110000, 320000};
    double ttd = kMedianMs[decision] * rv.ttd_scale;
    if (SecuritySensitive(it.server) && (chosen & Bit(kSecurity))) ttd *= 1.6;
    if (it.type == 0 && !diff_view) ttd *= 1.4;
    if (evening) ttd *= 0.55;
    if (s.mobile) ttd *= 0.8;
    ttd *= std::max(0.6, 1.0 - 0.03 * pos);
    ttd = Clamp(rng_.LogNormal(ttd, 0.5), 3000, 3600000);
    w_.Key("meta").Object();
    w_.Key("timeToDecisionMs").Int(Round(ttd));
    if (rng_.Chance(0.9)) {
      const double first = std::min(ttd * 0.8, rng_.LogNormal(s.mobile ? 4000 : 2500, 0.6));
      w_.Key("timeToFirstInteractionMs").Int(Round(first));
    }
    w_.Key("fieldsModified").Array();
    w_.Lit("decision");
    w_.Lit("scores");
    if (wrote_text) w_.Lit("freeText");
    if (wrote_comparison) w_.Lit("comparison");
    if (wrote_annotations) w_.Lit("annotations");
    if (wrote_confidence) w_.Lit("confidence");
    w_.EndArray();
    const double scroll =
        rv.scroll + (decision != kApproved ? 0.15 : 0) - (evening ? 0.2 : 0) + 0.1 * rng_.Normal();
    w_.Key("scrollDepth").Num(Clamp(scroll, 0.05, 1.0), 2);
    const bool deliberated = decision == kRejected || decision == kDeferred;
    w_.Key("revisits").Int(deliberated ? rng_.Below(4) : (rng_.Chance(0.15) ? 1 : 0));
    w_.Key("deviceType").Lit(s.mobile ? "mobile" : "desktop");
    w_.Key("concurrentModals").Int(rng_.Below(2) + (pos >= 3 && rng_.Chance(0.4) ? 1 : 0));
    // Seed 000 §3.5 presentation formats: the diff view, the full file, or the summary alone.
    w_.Key("presentationFormat")
        .Lit(diff_view         ? "diff-summary"
             : IsCode(it.type) ? "full-file"
                               : "summary-only");
    w_.EndObject();

    // Seed 000 §9.3: emphatic reviews count double, unsure ones half.
    const int low = score[worst];
    if ((decision == kRejected && low <= 3 && rng_.Chance(0.4)) ||
        (decision == kApproved && mean >= 8.5 && rng_.Chance(0.4))) {
      w_.Key("override").Lit("strong");
    } else if ((wrote_confidence && level.ends_with("unsure") && rng_.Chance(0.5)) ||
               rng_.Chance(0.01)) {
      w_.Key("override").Lit("weak");
    }
    End();

    if (primary && !it.external) {
      Item& stored = items_[idx];
      if (decision == kApproved) {
        approved_[approved_count_++ % approved_.size()] = idx;
      } else if (decision == kDeferred) {
        pending_[r].push_back(idx);
      } else {
        uint16_t criticized = 0;
        for (int i = 0; i < n_scores; ++i) {
          if (score[dims[i]] <= 6) criticized |= static_cast<uint16_t>(1u << dims[i]);
        }
        stored.criticized = static_cast<uint16_t>(criticized | (1u << worst));
        if (stored.version < 6 && rng_.Chance(0.9)) revisions_.push_back(idx);
      }
      reviewed_[reviewed_count_++ % reviewed_.size()] = idx;
    }

    if (pos + 1 < s.size) {
      const double pause = rng_.LogNormal(20000, 0.6) + rng_.LogNormal(60000, 0.8);
      Schedule(t + Round(std::max(1000.0, pause * compress_[r])), kReviewStep, si, pos + 1);
    }
  }

  // ---- swarm: epics, subtasks, errors, outcomes ----

  void PlanEpic(int64_t t) {
    const double p = Progress(t);
    // The planner learns to avoid file-type splits as they keep failing.
    const std::array<double, 4> strategy_w = {0.30 - 0.22 * p, 0.30 + 0.15 * p, 0.22,
                                              0.18 + 0.07 * p};
    const int strategy = rng_.Weighted(strategy_w);
    const int plan = strategy * 3 + static_cast<int>(rng_.Below(3));
    const Plan& pl = kPlans[plan];
    double success = 0;
    int n_patterns = 0;
    bool parallel = false;
    for (Pattern pt : pl.patterns) {
      if (pt == kNoPattern) continue;
      success += kPatternSuccess[pt];
      ++n_patterns;
      parallel |= pt == kMaximizeParallel;
    }
    success = Clamp(success / n_patterns + 0.08 * p, 0.05, 0.97);
    parallel |= rng_.Chance(0.4);
    const uint32_t epic = ++epics_;
    const uint8_t server = static_cast<uint8_t>(rng_.Weighted(kServerWeights));
    const uint8_t domain = static_cast<uint8_t>(rng_.Below(4));
    const uint8_t task = static_cast<uint8_t>(rng_.Below(kEpicTasks.size()));
    const int count = rng_.Between(2, 5);
    int64_t cursor = t;
    for (int i = 0; i < count; ++i) {
      Subtask st;
      st.epic = epic;
      st.index = static_cast<uint8_t>(i + 1);
      st.plan = static_cast<uint8_t>(plan);
      st.server = server;
      st.domain = domain;
      st.task = task;
      st.start = parallel ? t + rng_.Below(90) * kSecond : cursor;
      st.success = rng_.Chance(success);
      if (st.success) {
        st.errors = rng_.Chance(0.08) ? 1 : 0;
        st.resolved = st.errors;  // bit mask: every error of a success was fixed
      } else {
        const double u = rng_.U();
        st.errors = u < 0.3 ? 0 : u < 0.8 ? 1 : 2;
        for (int e = 0; e < st.errors; ++e) {
          if (rng_.Chance(0.1)) st.resolved |= static_cast<uint8_t>(1u << e);
        }
      }
      for (int e = 0; e < st.errors; ++e) {
        // File-type splits fight over reservations.
        const std::array<double, 5> type_w = {0.35, 0.2, strategy == 0 ? 0.9 : 0.1, 0.25, 0.1};
        st.error_types[e] = static_cast<uint8_t>(rng_.Weighted(type_w));
      }
      const bool timed_out = st.errors > 0 && st.error_types[0] == kTimeout && !st.success;
      const double dur = st.success
                             ? rng_.LogNormal(240 * kSecond, 0.6)
                             : rng_.LogNormal(timed_out ? 2100 * kSecond : 1500 * kSecond, 0.5);
      st.duration = std::max<int64_t>(60 * kSecond, Round(dur));
      st.retries =
          static_cast<uint8_t>(st.success ? std::popcount(static_cast<unsigned>(st.resolved))
                                          : st.errors + rng_.Below(2));
      for (int c = 1 + static_cast<int>(rng_.Below(3)); c > 0; --c) {
        st.criteria |= static_cast<uint8_t>(1u << rng_.Below(kCriteria.size()));
      }
      st.files = static_cast<uint8_t>(1 + rng_.Below(15));
      st.message = static_cast<uint8_t>(rng_.Below(3));
      subtasks_.push_back(st);
      const uint32_t si = static_cast<uint32_t>(subtasks_.size() - 1);
      for (int e = 0; e < st.errors; ++e) {
        const int64_t at = st.start + Round(st.duration * (0.15 + 0.3 * e + 0.1 * rng_.U()));
        Schedule(at, kErrorStep, si, static_cast<uint32_t>(e));
        if (st.resolved & (1u << e)) {
          Schedule(at + Round(st.duration * (0.05 + 0.08 * rng_.U())) + 1, kResolveStep, si,
                   static_cast<uint32_t>(e));
        }
      }
      Schedule(st.start + st.duration, kOutcomeStep, si);
      cursor = st.start + st.duration + rng_.Below(120) * kSecond;
    }
  }

  void BeadId(const Subtask& st) {
    w_.BeginStr();
    w_.Raw("bd-");
    w_.RawNum(st.epic);
    w_.Raw(".");
    w_.RawNum(st.index);
    w_.EndStr();
  }

  void EmitError(int64_t t, uint32_t si, uint32_t e) {
    Subtask& st = subtasks_[si];
    const int type = st.error_types[e];
    st.error_ids[e] = Begin("error", t);
    w_.Key("bead_id");
    BeadId(st);
    w_.Key("error_type").Lit(kErrorTypes[type]);
    w_.Key("message").Lit(kErrorTexts[type].messages[(st.message + e) % 3]);
    if (rng_.Chance(0.2)) {
      w_.Key("stack_trace").BeginStr();
      w_.Raw("at validateInput (servers/");
      w_.Raw(kServers[st.server].slug);
      w_.Raw("/src/tools/");
      w_.Raw(kServers[st.server].domains[st.domain]);
      w_.Raw(".ts:");
      w_.RawNum(10 + rng_.Below(300));
      w_.Esc(":11)\n    at processBatch (src/sync.ts:88:5)");
      w_.EndStr();
    }
    w_.Key("tool_name").Lit(rng_.Pick(kErrorTexts[type].tools));
    if (rng_.Chance(0.7)) w_.Key("context").Lit(rng_.Pick(kErrorContexts));
    End();
  }

  void EmitResolution(int64_t t, uint32_t si, uint32_t e) {
    const Subtask& st = subtasks_[si];
    Begin("error", t);
    w_.Key("bead_id");
    BeadId(st);
    w_.Key("resolves").Uuid(st.error_ids[e]);
    w_.Key("context").Lit(rng_.Pick(kResolutions));
    End();
  }

  void EmitOutcome(int64_t t, uint32_t si) {
    const Subtask& st = subtasks_[si];
    const Plan& pl = kPlans[st.plan];
    const Server& s = kServers[st.server];
    Begin("outcome", t);
    w_.Key("bead_id");
    BeadId(st);
    w_.Key("duration_ms").Int(st.duration);
    w_.Key("error_count").Int(st.errors);
    w_.Key("retry_count").Int(st.retries);
    w_.Key("success").Bool(st.success);
    w_.Key("files_touched").Array();
    static constexpr std::array<std::string_view, 4> kFiles = {"/src/tools/", "/src/types.ts",
                                                               "/test/", "/src/client.ts"};
    for (int f = 0; f < 4; ++f) {
      if (!(st.files & (1u << f))) continue;
      w_.BeginStr();
      w_.Raw("servers/");
      w_.Raw(s.slug);
      w_.Raw(kFiles[f]);
      if (f == 0 || f == 2) {
        w_.Raw(s.domains[st.domain]);
        w_.Raw(f == 0 ? ".ts" : ".test.ts");
      }
      w_.EndStr();
    }
    w_.EndArray();
    w_.Key("strategy").Lit(kStrategies[pl.strategy]);
    if (!st.success) {
      if (st.errors > 0) {
        const int type = st.error_types[0];
        w_.Key("failure_mode").Lit(kFailureModes[type]);
        w_.Key("failure_details").Lit(kErrorTexts[type].messages[st.message % 3]);
      } else {
        const bool tests = rng_.Chance(0.6);
        w_.Key("failure_mode").Lit(tests ? "tests_failing" : "scope_creep");
        w_.Key("failure_details")
            .Lit(tests ? "Subtask finished but its tests fail on main"
                       : "Subtask touched files outside its reservation and was rolled back");
      }
    }
    w_.Key("criteria").Array();
    for (size_t c = 0; c < kCriteria.size(); ++c) {
      if (st.criteria & (1u << c)) w_.Lit(kCriteria[c]);
    }
    w_.EndArray();
    w_.Key("patterns").Array();
    for (Pattern pt : pl.patterns) {
      if (pt != kNoPattern) w_.Lit(learn::kDetectedStrategies[pt]);
    }
    w_.EndArray();
    w_.Key("description").BeginStr();
    w_.Raw(kEpicTasks[st.task]);
    w_.Raw(" to the ");
    w_.Raw(s.name);
    w_.Raw(" MCP server: ");
    w_.Raw(pl.text);
    w_.EndStr();
    End();
  }

  // ---- rewards ----

  void EmitReward(int64_t t) {
    const double p = Progress(t);
    enum { kCi, kCoverage, kMerge, kSatisfaction, kIterations, kTime, kApproach, kTurnaround };
    int type = rng_.Weighted(std::array<double, 8>{0.32, 0.18, 0.18, 0.14, 0.06, 0.05, 0.04, 0.03});
    const size_t work_n = std::min<size_t>(recent_work_count_, recent_work_.size());
    const size_t approved_n = std::min<size_t>(approved_count_, approved_.size());
    const size_t session_n = std::min<size_t>(recent_session_count_, recent_sessions_.size());
    if (type == kMerge && approved_n == 0) type = kCi;
    if (type == kSatisfaction && session_n == 0) type = kCi;
    if ((type == kCi || type == kCoverage) && work_n == 0) type = kTurnaround;
    Begin("reward", t);
    w_.Key("signal_id").BeginStr();
    w_.Raw("sig-");
    w_.RawHex(rng_.Next(), 12);
    w_.EndStr();
    const Item* task = nullptr;
    if (type == kMerge) {
      task = &items_[approved_[rng_.Below(static_cast<uint32_t>(approved_n))]];
    } else if (work_n > 0 && type != kSatisfaction) {
      task = &items_[recent_work_[rng_.Below(static_cast<uint32_t>(work_n))]];
    }
    if (task != nullptr && type != kApproach && type != kTurnaround) {
      w_.Key("commit_hash").BeginStr();
      w_.RawHex(rng_.Next(), 12);
      w_.EndStr();
    }
    if (task != nullptr) {
      w_.Key("task_id");
      ProductId(*task);
    }
    const double quality = task != nullptr ? ExpectedScore(*task) : 6.0;
    switch (type) {
      case kCi: {
        const bool pass = rng_.Chance(1.0 / (1.0 + std::exp(-1.3 * (quality - 5.3))));
        w_.Key("signal_type").Lit("ci_result");
        if (rng_.Chance(0.25)) w_.Key("signal_value").Int(pass ? 1 : 0);
        if (rng_.Chance(0.15)) {
          w_.Key("raw_value").Lit(pass ? "passed" : "failed");
        } else {
          w_.Key("raw_value").Lit(pass ? "pass" : "fail");
        }
        w_.Key("source").Lit("automatic");
        break;
      }
      case kCoverage: {
        const double delta =
            Clamp(0.8 * (quality - 6.0) + 1.5 * p + 2.5 * rng_.Normal(), -100, 100);
        w_.Key("signal_type").Lit("coverage_delta");
        w_.Key("raw_value").Num(delta, 1);
        w_.Key("source").Lit("automatic");
        break;
      }
      case kMerge: {
        const double u = rng_.U();
        const double revert = quality < 6.5 ? 0.12 : 0.03;
        w_.Key("signal_type").Lit("merge_outcome");
        w_.Key("raw_value").Lit(u < revert ? "reverted" : u < revert + 0.1 ? "closed" : "merged");
        w_.Key("source").Lit("automatic");
        w_.Key("delay_days").Int(std::max<int64_t>(0, (t - task->created) / kDay));
        break;
      }
      case kSatisfaction: {
        const Session& s =
            sessions_[recent_sessions_[rng_.Below(static_cast<uint32_t>(session_n))]];
        const int rating =
            static_cast<int>(Clamp(Round(2.5 + 1.8 * p + 0.8 * rng_.Normal()), 1, 5));
        w_.Key("session_id").BeginStr();
        w_.Raw("sess-");
        w_.Raw(Reviewers()[s.reviewer].id);
        w_.Raw("-");
        w_.RawNum(s.date, 8);
        w_.Raw("-");
        w_.RawNum(s.number, 5);
        w_.EndStr();
        w_.Key("signal_type").Lit("satisfaction");
        if (rng_.Chance(0.3)) {
          w_.Key("signal_value").Num((rating - 1) / 4.0, 2);
        } else {
          w_.Key("raw_value").Int(rating);
        }
        w_.Key("source").Lit("human");
        break;
      }
      case kIterations:
        w_.Key("signal_type").Lit("iteration_count");
        w_.Key("raw_value")
            .Int(1 + static_cast<int>(Clamp(Round(2.5 - 1.5 * p + rng_.Normal()), 0, 6)));
        w_.Key("source").Lit("agent");
        break;
      case kTime: {
        const double baseline = 1800;
        w_.Key("signal_type").Lit("time_efficiency");
        w_.Key("raw_value").Int(Round(Clamp(rng_.LogNormal(2400 - 900 * p, 0.4), 60, 20000)));
        w_.Key("baseline_seconds").Int(static_cast<int64_t>(baseline));
        w_.Key("source").Lit("automatic");
        break;
      }
      case kApproach:
        w_.Key("signal_type").Lit("approach_correctness");
        w_.Key("raw_value").Lit(rng_.Chance(0.55 + 0.3 * p) ? "yes" : "no");
        w_.Key("source").Lit("human");
        w_.Key("confidence").Num(0.6 + 0.4 * rng_.U(), 2);
        break;
      default:
        // No normalization rule for this one: the signal is given already normalized.
        w_.Key("signal_type").Lit("review_turnaround");
        w_.Key("signal_value").Num(Clamp(0.45 + 0.3 * p + 0.12 * rng_.Normal(), 0, 1), 2);
        w_.Key("source").Lit("automatic");
        w_.Key("confidence").Num(0.8, 1);
        break;
    }
    End();
  }

  // ---- corrections ----

  void StartCorrections(int64_t t) {
    CorrectionSession cs;
    cs.start = t;
    cs.date = Yyyymmdd(t);
    cs.user = static_cast<uint8_t>(rng_.Below(kUsers.size()));
    cs.project = cs.user == 0 ? 0 : cs.user == 1 ? 1 : (rng_.Chance(0.6) ? 0 : 1);
    cs.size = static_cast<uint8_t>(1 + rng_.Weighted(std::array<double, 4>{0.35, 0.3, 0.2, 0.15}));
    cs.model = Progress(t) > 0.6 ? 1 : 0;
    corrections_.push_back(cs);
    Schedule(Next(human_cal_, t, correction_gap_), kCorrectionSessionStep);
    EmitCorrection(t, static_cast<uint32_t>(corrections_.size() - 1), 0);
  }

  void EmitCorrection(int64_t t, uint32_t ci, uint32_t pos) {
    const CorrectionSession cs = corrections_[ci];
    const double p = Progress(t);
    const auto& types = CorrectionTypes();
    std::array<double, 17> weights{};
    for (size_t i = 0; i < types.size() && i < weights.size(); ++i) {
      weights[i] =
          types[i].project == cs.project ? types[i].weight * (1 - types[i].decline * p) : 0;
    }
    const CorrectionType& ct = types[rng_.Weighted(weights)];
    const auto& pair = rng_.Pick(ct.pairs);
    Begin("correction", t);
    w_.Key("session_id").BeginStr();
    w_.Raw(cs.project == 0 ? "jseeker_" : "via_");
    w_.RawNum(cs.date, 8);
    w_.Raw("_");
    w_.RawNum(
        static_cast<uint64_t>(cs.start % kDay / kSecond / 3600 * 10000 +
                              cs.start % kHour / kMinute * 100 + cs.start % kMinute / kSecond),
        6);
    w_.EndStr();
    w_.Key("correction_type").Lit(ct.name);
    w_.Key("original").Str(pair.first);
    w_.Key("corrected").Str(pair.second);
    w_.Key("context").Object();
    if (cs.project == 0) {
      w_.Key("project").Lit("jSeeker");
      w_.Key("operation").Lit("resume_adaptation");
      w_.Key("section").Lit(rng_.Pick(kResumeSections));
      w_.Key("prompt_template").Lit(p > 0.5 ? "adaptation_v3" : "adaptation_v2");
    } else {
      w_.Key("project").Lit("VIA");
      w_.Key("operation").Lit("claim_extraction");
      w_.Key("document_id").BeginStr();
      w_.Raw("doc-");
      w_.RawNum(1000 + rng_.Below(9000));
      w_.EndStr();
      w_.Key("prompt_template").Lit("claims_v1");
    }
    w_.Key("model").Lit(cs.model ? "claude-sonnet-4.5" : "claude-sonnet-4");
    w_.EndObject();
    w_.Key("user_id").Lit(kUsers[cs.user]);
    const int method = rng_.Weighted(std::array<double, 3>{0.65, cs.project == 1 ? 0.3 : 0.1, 0.2});
    w_.Key("correction_method")
        .Lit(method == 0   ? "manual_edit"
             : method == 1 ? "rejection"
                           : "feedback_form");
    End();
    if (pos + 1 < cs.size) {
      Schedule(t + Round(rng_.LogNormal(90 * kSecond, 0.8)), kCorrectionStep, ci, pos + 1);
    }
  }

  // ---- refinement loops ----

  void StartLoop(int64_t t) {
    const double p = Progress(t);
    Loop l;
    l.number = ++loop_count_;
    l.server = static_cast<uint8_t>(rng_.Weighted(kServerWeights));
    l.domain = static_cast<uint8_t>(rng_.Below(4));
    l.coverage = Clamp(0.45 + 0.15 * p + 0.1 * rng_.Normal(), 0.05, 0.95);
    l.quality = Clamp(0.55 + 0.12 * p + 0.08 * rng_.Normal(), 0.1, 0.95);
    l.security = Clamp(0.6 + 0.15 * p + 0.1 * rng_.Normal(), 0.1, 0.98);
    l.types = Clamp(0.6 + 0.1 * p + 0.1 * rng_.Normal(), 0.1, 0.98);
    l.docs = Clamp(0.35 + 0.2 * p + 0.12 * rng_.Normal(), 0.0, 0.95);
    l.vulnerabilities = static_cast<int>(rng_.Below(4));
    l.type_errors = static_cast<int>(rng_.Below(9));
    l.tests = 20 + static_cast<int>(rng_.Below(80));
    loops_.push_back(l);
    Schedule(Next(flat_cal_, t, loop_gap_), kLoopStartStep);
    EmitLoopIteration(t, static_cast<uint32_t>(loops_.size() - 1));
  }

  void EmitLoopIteration(int64_t t, uint32_t li) {
    Loop& l = loops_[li];
    ++l.iteration;
    if (l.iteration > 1) {  // each refinement fixes part of what the last feedback named
      l.coverage = std::min(0.98, l.coverage + 0.06 + 0.04 * rng_.U());
      l.quality = std::min(0.98, l.quality + 0.04 + 0.03 * rng_.U());
      l.security = std::min(0.99, l.security + 0.03 + 0.04 * rng_.U());
      l.types = std::min(0.99, l.types + 0.04 + 0.03 * rng_.U());
      l.docs = std::min(0.98, l.docs + 0.05 + 0.05 * rng_.U());
      l.vulnerabilities = std::max(0, l.vulnerabilities - 1);
      l.type_errors = std::max(0, l.type_errors - 2 - static_cast<int>(rng_.Below(3)));
      l.tests += 3 + static_cast<int>(rng_.Below(10));
    }
    const bool passing =
        l.type_errors == 0 && l.coverage > 0.55 && (l.iteration > 1 || rng_.Chance(0.3));
    const double overall =
        0.3 * l.coverage + 0.25 * l.quality + 0.2 * l.security + 0.15 * l.types + 0.1 * l.docs;
    // Seed 003: halt when tests pass and the weighted quality clears 0.75, or at 5 iterations.
    const bool halt = (passing && overall > 0.75) || l.iteration >= 5;
    const double elapsed = Clamp(rng_.LogNormal(300, 0.6), 30, 3600);
    Begin("loop", t);
    w_.Key("loop_id").BeginStr();
    w_.Raw("loop-");
    w_.Raw(kServers[l.server].slug);
    w_.Raw("-");
    w_.RawNum(l.number, 5);
    w_.EndStr();
    w_.Key("iteration").Int(l.iteration);
    w_.Key("metrics").Object();
    w_.Key("test_coverage").Num(l.coverage, 3);
    w_.Key("tests_passing").Bool(passing);
    w_.Key("test_count").Int(l.tests);
    w_.Key("code_quality_score").Num(l.quality, 3);
    w_.Key("security_score").Num(l.security, 3);
    w_.Key("vulnerabilities").Int(l.vulnerabilities);
    w_.Key("type_coverage").Num(l.types, 3);
    w_.Key("type_errors").Int(l.type_errors);
    w_.Key("doc_coverage").Num(l.docs, 3);
    w_.Key("overall_quality").Num(overall, 3);
    w_.EndObject();
    w_.Key("cost").Num(Clamp(rng_.LogNormal(0.18, 0.5), 0.01, 5), 3);
    w_.Key("elapsed_seconds").Num(elapsed, 1);
    w_.Key("feedback").BeginStr();
    const std::string_view domain = kServers[l.server].domains[l.domain];
    if (l.type_errors > 0) {
      w_.RawNum(static_cast<uint64_t>(l.type_errors));
      w_.Raw(" type errors in src/");
      w_.Raw(domain);
      w_.Raw(".ts; fix them before anything else");
    } else if (!passing) {
      w_.Raw("Tests failing in test/");
      w_.Raw(domain);
      w_.Raw(".test.ts; add a null check for missing fields");
    } else if (l.vulnerabilities > 0) {
      w_.RawNum(static_cast<uint64_t>(l.vulnerabilities));
      w_.Raw(" vulnerabilities in dependencies; upgrade and validate inputs");
    } else if (l.coverage < 0.8) {
      w_.Raw("Coverage at ");
      w_.RawNum(static_cast<uint64_t>(Round(l.coverage * 100)));
      w_.Raw("%; add tests for the error paths in ");
      w_.Raw(domain);
    } else if (l.docs < 0.7) {
      w_.Raw("Document the exported ");
      w_.Raw(domain);
      w_.Raw(" functions");
    } else {
      w_.Raw("Quality bar met; ready for review");
    }
    w_.EndStr();
    End();
    if (!halt) Schedule(t + Round(elapsed * kSecond), kLoopStep, li);
  }

  // ---- admin ----

  void EmitAdmin(int64_t t) {
    Begin("admin", t);
    if (rng_.Chance(0.75)) {
      const int rule = static_cast<int>(rng_.Below(kRules.size()));
      const bool retire = rng_.Chance(kRuleRetire[rule]);
      w_.Key("action").Lit("rule_audit");
      w_.Key("rule_id").Lit(kRules[rule]);
      w_.Key("verdict").Lit(retire ? "retire" : "confirm");
      w_.Key("reviewerId").Lit(Reviewers()[rng_.Below(4)].id);
      w_.Key("note").Lit(retire ? kAuditNotes[1 + 2 * rng_.Below(2)]
                                : kAuditNotes[2 * rng_.Below(2)]);
    } else {
      const bool on = rng_.Chance(0.85);
      w_.Key("action").Lit("consent");
      // A user who turns learning off leaves nothing after it (ingest would skip it, seed 004
      // "If OFF, corrections not logged"): the ones who opt out here are former users, so every
      // generated event is still stored.
      const std::string_view user = rng_.Pick(kUsers);
      w_.Key("user_id").Lit(on ? std::string(user) : "former-" + std::string(user));
      w_.Key("learning_mode").Bool(on);
      w_.Key("note").Lit(on ? "Opted in from settings: Learning Mode ON"
                            : "Turned Learning Mode OFF");
    }
    End();
  }

  // No line comes near this (the largest, a feedback with a comparison, is a few KB).
  static constexpr size_t kMaxLineBytes = 256 << 10;

  const GenOptions options_;
  std::string* out_;
  Json w_;
  Rng rng_;
  size_t chunk_bytes_;
  const std::function<void(std::string_view)>* sink_;
  std::unique_ptr<char[]> buffer_;
  bool reserved_ = false;
  int64_t span_ms_ = kDay, end_ms_ = 0;
  int64_t now_ = 0;
  uint64_t emitted_ = 0, seq_ = 0;
  std::priority_queue<Scheduled, std::vector<Scheduled>, Later> heap_;

  std::array<Calendar, 4> reviewer_cal_;
  Calendar agent_cal_, human_cal_, flat_cal_;
  std::array<double, 4> session_gap_{}, compress_{};
  double work_gap_ = 0, epic_gap_ = 0, reward_gap_ = 0, correction_gap_ = 0, loop_gap_ = 0,
         admin_gap_ = 0;

  std::vector<Item> items_;
  std::array<std::deque<uint32_t>, 4> pending_;  // per reviewer, oldest first
  std::deque<uint32_t> revisions_;               // rejected items waiting for the agent
  std::array<uint32_t, 64> reviewed_{}, approved_{}, recent_work_{};
  std::array<uint32_t, 32> recent_sessions_{};
  uint64_t reviewed_count_ = 0, approved_count_ = 0, recent_work_count_ = 0,
           recent_session_count_ = 0;
  uint32_t products_ = 0, agent_run_ = 0, session_count_ = 0, epics_ = 0, loop_count_ = 0;
  std::vector<Session> sessions_;
  std::vector<Subtask> subtasks_;
  std::vector<CorrectionSession> corrections_;
  std::vector<Loop> loops_;
};

}  // namespace

void GenerateHistory(const GenOptions& options, std::string* out) {
  Generator(options, out, size_t{1} << 20, nullptr).Run();
}

void GenerateHistory(const GenOptions& options, size_t chunk_bytes,
                     const std::function<void(std::string_view)>& sink) {
  Generator(options, nullptr, chunk_bytes, &sink).Run();
}

}  // namespace kaizen::sim
