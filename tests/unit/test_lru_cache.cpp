// The byte-budgeted LRU (cache/): budget, recency, single-flight loads.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "cache/lru_cache.h"

namespace test_lru_cache {  // this file's names, apart from the other test files' (unity builds join them)

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

TEST_CASE("blobs: the front of a mapped one is given back and stops counting; a small one is kept") {
    const uint64_t before = Blob::live_bytes();
    auto big = Blob::allocate(4u << 20);
    std::fill(big->data(), big->data() + big->size(), 7);
    CHECK(Blob::live_bytes() == before + (4u << 20));
    big->release_front((1u << 20) + 100);  // whole pages only
    CHECK(Blob::live_bytes() == before + (3u << 20));
    CHECK(big->data()[0] == 0);                 // given back: a fresh zero page
    CHECK(big->data()[(1u << 20) + 100] == 7);  // the page it was in stays
    big->release_front(1000);                   // behind what was given back: nothing more
    CHECK(Blob::live_bytes() == before + (3u << 20));
    auto small = Blob::allocate(8192);
    std::fill(small->data(), small->data() + small->size(), 9);
    small->release_front(8192);
    CHECK(small->data()[0] == 9);
    big.reset();
    small.reset();
    CHECK(Blob::live_bytes() == before);
}

TEST_CASE("loads made for sizes stay in a small pool of their own until a read wants them") {
    LruCache cache(10000, 1000);
    auto loaded_again = [&](uint64_t key) {
        bool again = false;
        cache.get(key, [&] { again = true; return bytes(400); });
        return again;
    };
    cache.get(10, [] { return bytes(400); });  // a read's bytes: the main pool
    {
        const SizingLoads sizing;
        CHECK(SizingLoads::active());
        {
            const SizingLoads nested;  // scopes nest: the inner one's end keeps the outer active
        }
        CHECK(SizingLoads::active());
        for (uint64_t key = 1; key <= 3; ++key) cache.get(key, [] { return bytes(400); });
        CHECK(cache.stats().sizing_bytes == 800);  // the pool holds two: key 1 went for key 3
        CHECK(loaded_again(1));                    // (a sizing load again, and 2 goes for it)
        CHECK_FALSE(loaded_again(10));             // a sizing hit on a read's entry leaves it there
    }
    CHECK_FALSE(SizingLoads::active());
    CHECK(cache.stats().resident_bytes == 400 + 800);
    CHECK(cache.stats().sizing_bytes == 800);
    CHECK(loaded_again(2));         // evicted from the pool
    CHECK_FALSE(loaded_again(3));   // a read hits key 3 and moves it to the main pool
    CHECK(cache.stats().sizing_bytes == 400);  // key 1 alone is left in the pool
    {
        const SizingLoads sizing;
        for (uint64_t key = 4; key <= 6; ++key) cache.get(key, [] { return bytes(400); });
    }
    CHECK_FALSE(loaded_again(3));   // the pool's churn no longer touches it
    CHECK_FALSE(loaded_again(10));
}

TEST_CASE("the sizing pool is emptied first when the whole budget is short") {
    LruCache cache(1000, 1000);
    {
        const SizingLoads sizing;
        cache.get(1, [] { return bytes(400); });
    }
    cache.get(2, [] { return bytes(400); });  // a read: more recent than nothing in its pool
    cache.get(3, [] { return bytes(400); });  // over budget: the sizing entry goes, not 2
    bool reloaded = false;
    cache.get(2, [&] { reloaded = true; return bytes(400); });
    CHECK_FALSE(reloaded);
    CHECK(cache.stats().sizing_bytes == 0);
    CHECK(cache.stats().resident_bytes == 800);
}

TEST_CASE("a read waiting on a load started for a size keeps what it loads") {
    LruCache cache(1 << 20, 1 << 10);
    std::atomic<bool> release{false}, started{false};
    std::thread sizer([&] {
        const SizingLoads sizing;
        cache.get(1, [&] {
            started = true;
            while (!release) std::this_thread::yield();
            return bytes(4000);  // larger than the whole sizing pool
        });
    });
    while (!started) std::this_thread::yield();
    std::thread reader([&] { cache.get(1, [] { return bytes(4000); }); });
    while (cache.stats().waits == 0) std::this_thread::yield();
    release = true;
    sizer.join();
    reader.join();
    CHECK(cache.stats().sizing_bytes == 0);
    CHECK(cache.stats().resident_bytes == 4000);
}

TEST_CASE("a buffer handed over before it is filled: reads wait for their part, a failure answers every wait after it") {
    LruCache cache(1 << 20);
    auto filling = std::make_shared<Filling>();
    auto blob = Blob::allocate(1000);
    const auto first = cache.get(3, [&] { return Loaded{blob, {}, filling}; });
    REQUIRE(first.filling);
    // A hit shares the same progress.
    CHECK(cache.get(3, [] { return bytes(1); }).filling == first.filling);

    std::atomic<bool> served{false};
    std::thread reader([&] {
        if (first.filling->wait_for(600).empty() && blob->data()[599] == 7) served = true;
    });
    std::fill(blob->data(), blob->data() + 500, 7);
    filling->advance(500);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK_FALSE(served);  // 600 bytes asked, 500 final
    std::fill(blob->data() + 500, blob->data() + 700, 7);
    filling->advance(700);
    reader.join();
    CHECK(served);
    CHECK(first.filling->wait_for(700).empty());

    std::string late;
    std::thread waiting([&] { late = first.filling->wait_for(1000); });
    filling->fail("damaged at 0x2bc");
    waiting.join();
    CHECK(late == "damaged at 0x2bc");
    CHECK(first.filling->wait_for(10) == "damaged at 0x2bc");  // rejected whole, early bytes too

    cache.forget(3);
    CHECK(cache.stats().entries == 0);
    CHECK(cache.stats().resident_bytes == 0);
    bool reloaded = false;
    cache.get(3, [&] { reloaded = true; return bytes(10); });
    CHECK(reloaded);
}

TEST_CASE("concurrent loads wait for room: their peaks never add up past the budget") {
    LruCache cache(1000);
    std::atomic<int> loading{0}, most{0};
    std::vector<std::thread> threads;
    for (uint64_t key = 1; key <= 6; ++key)
        threads.emplace_back([&, key] {
            cache.get(key, [&] {
                const int now = ++loading;
                most = std::max(most.load(), now);
                auto out = bytes(600);
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                --loading;
                return out;
            }, 600);
        });
    for (auto& t : threads) t.join();
    CHECK(most == 1);  // 600 + 600 would pass the 1000-byte budget
    const auto s = cache.stats();
    CHECK(s.room_waits >= 1);
    CHECK(s.stalled_starts == 0);
    CHECK(s.resident_bytes == 600);
}

TEST_CASE("a buffer still filling is not evicted: it is kept until its fill settles") {
    LruCache cache(1000);
    auto blob = Blob::allocate(600);
    auto filling = std::make_shared<Filling>();
    cache.get(1, [&] { return Loaded{blob, {}, filling}; });
    blob.reset();
    cache.get(2, [] { return bytes(300); });  // fits beside it
    bool reloaded = false;
    cache.get(1, [&] { reloaded = true; return bytes(600); });
    CHECK_FALSE(reloaded);
    filling->advance(600);
    cache.get(3, [] { return bytes(500); });  // settled now: the least recent entry goes
    CHECK(cache.stats().resident_bytes <= 1000);
    cache.get(1, [&] { reloaded = true; return bytes(600); });
    CHECK(reloaded);
}

TEST_CASE("a loader's own further load does not wait for room, and loads that wait on each other start after a stall") {
    LruCache cache(1000);
    // Nested: the outer load's reservation would keep the inner one out forever.
    const auto outer = cache.get(1, [&] {
        const auto inner = cache.get(2, [] { return bytes(800); }, 800);
        return inner.bytes ? bytes(100) : Loaded{nullptr, "inner failed"};
    }, 800);
    CHECK(outer.bytes);
    CHECK(cache.stats().stalled_starts == 0);

    // A holds a lock B's loader needs, then asks for room B's reservation takes.
    std::mutex once;
    std::atomic<bool> b_loading{false};
    std::thread b([&] {
        cache.get(10, [&] {
            b_loading = true;
            std::lock_guard lock(once);
            return bytes(10);
        }, 900);
    });
    {
        std::unique_lock lock(once);
        while (!b_loading) std::this_thread::yield();
        cache.get(11, [] { return bytes(10); }, 900);
    }
    b.join();
    CHECK(cache.stats().stalled_starts == 1);
}

}  // namespace test_lru_cache
