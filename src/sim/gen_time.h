// `kaizen gen`'s units of time and the calendars that pace its processes: apart from the world and
// the JSON writer because both read them (the writer's timestamps, the generator's schedule).
#pragma once

#include <array>
#include <cstdint>

namespace kaizen::sim::gen {

inline constexpr int64_t kSecond = 1000;
inline constexpr int64_t kMinute = 60 * kSecond;
inline constexpr int64_t kHour = 60 * kMinute;
inline constexpr int64_t kDay = 24 * kHour;

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

}  // namespace kaizen::sim::gen
