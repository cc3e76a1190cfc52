// Deterministic pseudo-random numbers for the synthetic disc: the same seed
// always builds the same image (xoshiro256**, seeded through splitmix64).
#pragma once

#include <cstdint>

namespace gcfs::mkdisc {

class Random {
public:
    explicit Random(uint64_t seed);

    uint64_t next();
    uint32_t below(uint32_t bound);                 // uniform in [0, bound)
    int32_t between(int32_t low, int32_t high);     // uniform in [low, high]
    double unit();                                  // uniform in [0, 1)

private:
    uint64_t state_[4];
};

}  // namespace gcfs::mkdisc
