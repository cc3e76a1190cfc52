// The byte-budgeted LRU (cache/): budget, recency, single-flight loads.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "cache/lru_cache.h"

using namespace gcfs::cache;

namespace {
Loaded bytes(size_t n, uint8_t value = 1) {
    auto blob = Blob::allocate(n);
    std::fill(blob->data(), blob->data() + n, value);
    return {blob, {}};
}
}  // namespace

TEST_CASE("cache evicts least recently used entries to stay within its byte budget") {
    LruCache cache(1000);
    cache.get(1, [] { return bytes(400); });
    cache.get(2, [] { return bytes(400); });
    cache.get(1, [] { return bytes(400); });  // hit: 1 becomes most recent
    cache.get(3, [] { return bytes(400); });  // evicts 2
    const auto s = cache.stats();
    CHECK(s.resident_bytes == 800);
    CHECK(s.hits == 1);
    CHECK(s.misses == 3);
    CHECK(s.evictions == 1);
    bool reloaded = false;
    cache.get(2, [&] { reloaded = true; return bytes(400); });
    CHECK(reloaded);
    bool one_reloaded = false;
    cache.get(3, [&] { one_reloaded = true; return bytes(400); });
    CHECK_FALSE(one_reloaded);
}

TEST_CASE("an entry larger than the budget is returned and kept alone") {
    LruCache cache(100);
    cache.get(1, [] { return bytes(50); });
    const auto big = cache.get(2, [] { return bytes(500); });
    REQUIRE(big.bytes);
    CHECK(big.bytes->size() == 500);
    CHECK(cache.stats().entries == 1);
}

TEST_CASE("concurrent first reads of one key decode once") {
    LruCache cache(1 << 20);
    std::atomic<int> loads{0};
    std::vector<std::thread> threads;
    std::atomic<int> ok{0};
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&] {
            auto r = cache.get(7, [&] {
                ++loads;
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                return bytes(1000, 9);
            });
            if (r.bytes && r.bytes->data()[999] == 9) ++ok;
        });
    for (auto& t : threads) t.join();
    CHECK(loads == 1);
    CHECK(ok == 8);
    CHECK(cache.stats().misses == 1);
    CHECK(cache.stats().hits + cache.stats().waits == 7);
}

TEST_CASE("a failed load reaches every waiter and is not cached") {
    LruCache cache(1000);
    auto r = cache.get(5, [] { return Loaded{nullptr, "corrupt"}; });
    CHECK_FALSE(r.bytes);
    CHECK(r.error == "corrupt");
    CHECK(cache.stats().failures == 1);
    CHECK(cache.stats().entries == 0);
}

TEST_CASE("a load's expected size is made room for before the loader runs") {
    LruCache cache(1000);
    cache.get(1, [] { return bytes(400); });
    cache.get(2, [] { return bytes(400); });
    uint64_t resident_during_load = 0;
    cache.get(3, [&] {
        resident_during_load = cache.stats().resident_bytes;
        return bytes(300);
    }, 500);
    CHECK(resident_during_load == 400);  // entry 1 went before the load, not after it
    const auto s = cache.stats();
    CHECK(s.resident_bytes == 700);
    CHECK(s.evictions == 1);
}

TEST_CASE("blobs: large ones are mapped and can be narrowed without copying") {
    auto big = Blob::allocate(3u << 20);
    std::fill(big->data(), big->data() + big->size(), 7);
    big->data()[100] = 42;
    const uint8_t* at = big->data() + 100;
    big->narrow(100, 10);
    CHECK(big->data() == at);
    CHECK(big->size() == 10);
    CHECK(big->bytes()[0] == 42);
    CHECK_THROWS(big->narrow(5, 6));
    auto small = Blob::copy_of(std::vector<uint8_t>{1, 2, 3});
    CHECK(std::vector<uint8_t>(small->begin(), small->end()) == std::vector<uint8_t>{1, 2, 3});
    CHECK(Blob::allocate(0)->size() == 0);
}
