// Zheng Shang You's compiled core: move generation and the fewest-plays search.
//
// Each entry point mirrors a pure-Python function and must give exactly its
// answers, in the same order (the engine's random games are identical action
// by action under both paths):
//
//   moves(...)        solver/zsy/moves.py  _moves / _Gen (singles, sets, straights, parallels)
//   greedy(...)       solver/zsy/fewest.py _greedy
//   fewest(...)       solver/zsy/fewest.py _Search.solve + _walk (fewest_plays)
//   plays_after(...)  solver/zsy/fewest.py _Search.best over many states (plays_after)
//   endgame(...)      solver/zsy/endgame.py _Search.wins (wins, winning_moves)
//
// Only plain values cross the boundary: card counts by card index (the index
// of solver.cards.Card: suits S H D C, ranks A..K, then RJ, BJ, JK), ints and
// bools. Python validates every input first (solver/zsy/moves.py, fewest.py);
// this file checks again and throws std::invalid_argument (ValueError in
// Python) on anything out of range, never aborts. No global mutable state.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace {

constexpr int N_CARDS = 55;  // solver.cards.N_CARDS
constexpr int RED_JOKER = 52;
constexpr int BLACK_JOKER = 53;
constexpr int PLAIN_JOKER = 54;  // not in the Zheng Shang You deck
constexpr int ACE = 14;          // combos.ACE
constexpr int TWO = 15;          // combos.TWO
constexpr int MAX_STRAIGHT = 12; // combos.MAX_STRAIGHT

// Combo kinds as indexes of combos.KINDS; LEAD means "no combination to beat".
constexpr int LEAD = -1;
constexpr int SINGLE = 0;
constexpr int SET = 1;
constexpr int STRAIGHT = 2;
constexpr int PARALLEL = 3;

// combos._value: the card's ZSY value (3..10, J=11, Q=12, K=13, A=14, 2=15, BJ=16, RJ=17).
int value_of(int index) {
    if (index == RED_JOKER) return 17;
    if (index == BLACK_JOKER) return 16;
    if (index == PLAIN_JOKER) return 0;
    int rank = index % 13 + 1;  // Rank: A=1 ... K=13
    if (rank == 1) return ACE;
    if (rank == 2) return TWO;
    return rank;
}

int suit_of(int index) { return index / 13; }

// Python's tuple comparison a <= b for triples of ints.
bool le3(int a0, int a1, int a2, int b0, int b1, int b2) {
    if (a0 != b0) return a0 < b0;
    if (a1 != b1) return a1 < b1;
    return a2 <= b2;
}

bool le2(int a0, int a1, int b0, int b1) {
    if (a0 != b0) return a0 < b0;
    return a1 <= b1;
}

// The hand's card counts by index, checked (the Python side checked them already).
std::vector<int> checked_counts(const std::vector<int>& counts) {
    if (counts.size() != static_cast<size_t>(N_CARDS))
        throw std::invalid_argument("zsy core: a hand is " + std::to_string(N_CARDS) + " card counts");
    for (int i = 0; i < N_CARDS; ++i) {
        if (counts[i] < 0 || counts[i] > 1 || (i == PLAIN_JOKER && counts[i]))
            throw std::invalid_argument("zsy core: a hand holds each card of one deck at most once");
    }
    return counts;
}

// combos.Parts: the hand split by role; naturals by ZSY value 3..A, 2s, jokers, each in
// the order Parts.of gives (card index within a value; the black joker before the red).
struct Parts {
    std::array<std::vector<int>, ACE + 1> nat;
    std::vector<int> twos;
    std::vector<int> jokers;
    int n = 0;

    explicit Parts(const std::vector<int>& counts) {
        for (int i = 0; i < PLAIN_JOKER; ++i) {
            if (!counts[i]) continue;
            int v = value_of(i);
            ++n;
            if (v <= ACE)
                nat[v].push_back(i);
            else if (v == TWO)
                twos.push_back(i);
        }
        if (counts[BLACK_JOKER]) jokers.push_back(BLACK_JOKER), ++n;
        if (counts[RED_JOKER]) jokers.push_back(RED_JOKER), ++n;
    }
};

// itertools.combinations(pool, k) in its order; f(chosen, k) returns false to stop.
// Returns false when stopped.
template <class F>
bool for_combinations(const std::vector<int>& pool, int k, F&& f) {
    int n = static_cast<int>(pool.size());
    if (k < 0 || k > n) return true;
    std::array<int, 64> idx{};
    std::array<int, 64> chosen{};
    if (k > 64) return true;  // never: a hand holds at most 54 cards
    for (int i = 0; i < k; ++i) idx[i] = i;
    while (true) {
        for (int i = 0; i < k; ++i) chosen[i] = pool[idx[i]];
        if (!f(chosen.data(), k)) return false;
        int i = k - 1;
        while (i >= 0 && idx[i] == i + n - k) --i;
        if (i < 0) return true;
        ++idx[i];
        for (int j = i + 1; j < k; ++j) idx[j] = idx[j - 1] + 1;
    }
}

// Thrown out of a search when the budget is spent (SolverTimeout): out of time, asked to stop,
// or past the state cap. Caught at the entry points, never crosses to Python.
struct Stopped {};

// One move as plain values (the endgame search keeps them): a Combo's fields, its cards as a bit
// per card index (one deck: each card at most once).
struct Move {
    uint64_t cards = 0;
    int kind = LEAD;  // LEAD: no move (nothing to beat)
    int top = 0, length = 1, copies = 1;
    bool flush = false, pure = false;

    bool operator==(const Move& o) const {
        return cards == o.cards && kind == o.kind && top == o.top && length == o.length && copies == o.copies &&
               flush == o.flush && pure == o.pure;
    }
};

// Where the moves go: skips the first `skip`, keeps at most `limit` (-1: all) as
// (counts as 55 bytes, kind, top, length, copies, flush, pure) tuples, or, with `collect`,
// as Move structs (no Python objects: the endgame search).
struct Sink {
    long long skip;
    long long limit;
    long long seen = 0;
    long long taken = 0;
    bool stop = false;
    py::list out;
    std::vector<Move>* collect = nullptr;

    Sink(long long skip_, long long limit_) : skip(skip_), limit(limit_) {
        if (limit == 0) stop = true;
    }

    // Returns false once the sink is full (the generators stop).
    bool emit(const int* cards, int n, int kind, int top, int length, int copies, bool flush, bool pure) {
        if (stop) return false;
        if (seen++ < skip) return true;
        if (collect != nullptr) {
            Move m;
            for (int i = 0; i < n; ++i) m.cards |= uint64_t{1} << cards[i];
            m.kind = kind;
            m.top = top;
            m.length = length;
            m.copies = copies;
            m.flush = flush;
            m.pure = pure;
            collect->push_back(m);
            return true;
        }
        char buf[N_CARDS] = {0};
        for (int i = 0; i < n; ++i) buf[cards[i]] += 1;
        py::tuple item = py::make_tuple(py::bytes(buf, N_CARDS), kind, top, length, copies, flush, pure);
        out.append(std::move(item));
        ++taken;
        if (limit >= 0 && taken >= limit) stop = true;
        return !stop;
    }
};

// The move generators of moves._Gen over one hand; each mirrors the method of the same name.
class Gen {
   public:
    Gen(const Parts& p, Sink& sink) : p_(p), sink_(sink) {}

    // _Gen.singles: every card worth more than floor, naturals 3..A, then 2s, then jokers.
    void singles(int floor) {
        auto one = [&](int card) {
            int v = value_of(card);
            if (v > floor) sink_.emit(&card, 1, SINGLE, v, 1, 1, false, true);
        };
        for (int v = 3; v <= ACE; ++v)
            for (int c : p_.nat[v]) {
                if (sink_.stop) return;
                one(c);
            }
        for (int c : p_.twos) {
            if (sink_.stop) return;
            one(c);
        }
        for (int c : p_.jokers) {
            if (sink_.stop) return;
            one(c);
        }
    }

    // _Gen.sets: a naturals of rank v plus b wilds (2s and jokers; for v = 2, jokers only).
    void sets(bool sized, int size, bool floored, int ftop, int fpure) {
        std::vector<int> wilds = p_.twos;
        wilds.insert(wilds.end(), p_.jokers.begin(), p_.jokers.end());
        for (int v = 3; v <= TWO; ++v) {
            const std::vector<int>& naturals = v == TWO ? p_.twos : p_.nat[v];
            const std::vector<int>& extra = v == TWO ? p_.jokers : wilds;
            if (naturals.empty()) continue;
            bool only_pure = false;
            if (floored) {
                if (v < ftop || (v == ftop && fpure)) continue;
                only_pure = v == ftop;
            }
            int na = static_cast<int>(naturals.size());
            int ne = static_cast<int>(extra.size());
            for (int a = 1; a <= na; ++a) {
                int b_lo, b_hi;
                if (sized) {
                    int b = size - a;
                    if (b < 0 || b > ne) continue;
                    b_lo = b_hi = b;
                } else {
                    b_lo = a >= 2 ? 0 : 1;
                    b_hi = ne;
                }
                for (int b = b_lo; b <= b_hi; ++b) {
                    if (only_pure && b) continue;
                    bool go = for_combinations(naturals, a, [&](const int* nat, int ka) {
                        return for_combinations(extra, b, [&](const int* wild, int kb) {
                            int cards[64];
                            std::copy(nat, nat + ka, cards);
                            std::copy(wild, wild + kb, cards + ka);
                            return sink_.emit(cards, ka + kb, SET, v, 1, a + b, false, b == 0);
                        });
                    });
                    if (!go || sink_.stop) return;
                }
            }
        }
    }

    // _Gen.straights: distinct natural ranks from a low card up, jokers fill gaps and the top.
    void straights(bool sized, int length, bool floored, int fflush, int ftop, int fpure) {
        sized_ = sized;
        length_ = length;
        floored_ = floored;
        fflush_ = fflush;
        ftop_ = ftop;
        fpure_ = fpure;
        limit_ = sized ? length : MAX_STRAIGHT;
        int nj = static_cast<int>(p_.jokers.size());
        for (int a = 3; a <= ACE; ++a) {
            if (!nj && (a + 2 > ACE || p_.nat[a + 1].empty() || p_.nat[a + 2].empty())) continue;
            for (int card : p_.nat[a]) {
                path_.assign(1, card);
                extend(a, 0, true);
                if (sink_.stop) return;
            }
        }
    }

    // _Gen.parallels: every shape (copies, length), then every lowest natural rank.
    void parallels(bool shaped, int scopies, int slength, bool floored, int ftop, int fpure) {
        std::vector<std::pair<int, int>> shapes;
        if (shaped) {
            shapes.emplace_back(scopies, slength);
        } else {
            for (int c = 2; c <= p_.n / 3; ++c)
                for (int n = 3; n <= std::min(MAX_STRAIGHT, p_.n / c); ++n) shapes.emplace_back(c, n);
        }
        std::array<int, ACE + 1> held{};
        for (int v = 0; v <= ACE; ++v) held[v] = static_cast<int>(p_.nat[v].size());
        for (auto [copies, length] : shapes) {
            if (static_cast<long long>(copies) * length > p_.n) continue;
            for (int a = 3; a <= ACE; ++a) {
                if (!p_.nat[a].empty() && may_start(held, a, copies, length)) {
                    walk_ = Walk{a, copies, length, floored, ftop, fpure};
                    counts_.clear();
                    walk(a, 0, 0);
                    if (sink_.stop) return;
                }
            }
        }
    }

   private:
    const Parts& p_;
    Sink& sink_;
    // the straights' search (close/extend's closure in Python)
    bool sized_ = false, floored_ = false;
    int length_ = 0, fflush_ = 0, ftop_ = 0, fpure_ = 0, limit_ = 0;
    std::vector<int> path_;

    // _Gen.straights.close: the straight of path_ with k jokers, for each k that fits.
    void close(int hi, int gaps, bool flush) {
        int m = static_cast<int>(path_.size());
        int nj = static_cast<int>(p_.jokers.size());
        for (int k = gaps; k <= nj; ++k) {
            int n = m + k;
            if (n < 3 || n > MAX_STRAIGHT || (sized_ && n != length_)) continue;
            int top = std::min(ACE, hi + k - gaps);
            if (floored_ && le3(flush, top, k == 0, fflush_, ftop_, fpure_)) continue;
            bool go = for_combinations(p_.jokers, k, [&](const int* js, int kj) {
                int cards[64];
                std::copy(path_.begin(), path_.end(), cards);
                std::copy(js, js + kj, cards + m);
                return sink_.emit(cards, m + kj, STRAIGHT, top, n, 1, flush, k == 0);
            });
            if (!go) return;
        }
    }

    // _Gen.straights.extend: close here, then add a natural of each higher rank in reach.
    void extend(int x, int gaps, bool flush) {
        int nj = static_cast<int>(p_.jokers.size());
        int m = static_cast<int>(path_.size());
        if (m + nj >= 3) close(x, gaps, flush);
        if (sink_.stop) return;
        int hi = std::min(ACE, x + 1 + nj - gaps);
        for (int y = x + 1; y <= hi; ++y) {
            int g = gaps + y - x - 1;
            if (m + 1 + g > limit_) break;
            for (int card : p_.nat[y]) {
                path_.push_back(card);
                extend(y, g, flush && suit_of(card) == suit_of(path_[0]));
                path_.pop_back();
                if (sink_.stop) return;
            }
        }
    }

    // moves._Walk: one parallel-straights search.
    struct Walk {
        int low, copies, length;
        bool floored;
        int ftop, fpure;
    };
    Walk walk_{};
    std::vector<int> counts_;  // naturals used of rank low + i

    // _Gen._may_start
    bool may_start(const std::array<int, ACE + 1>& held, int low, int copies, int length) const {
        int wilds = static_cast<int>(p_.twos.size() + p_.jokers.size());
        int jokers = static_cast<int>(p_.jokers.size());
        int need = 0, zeros = 0;
        for (int x = low; x < low + length; ++x) {
            int k = x <= ACE ? held[x] : 0;
            if (k < copies) {
                need += copies - k;
                zeros += k == 0;
                if (need > wilds || zeros > jokers) return false;
            }
        }
        return true;
    }

    // _Gen._walk: how many naturals of rank x (most first; none only above the lowest rank).
    void walk(int x, int slots, int zeros) {
        const Walk& w = walk_;
        int nw = static_cast<int>(p_.twos.size() + p_.jokers.size());
        int nj = static_cast<int>(p_.jokers.size());
        int kstart = std::min(w.copies, static_cast<int>(p_.nat[x].size()));
        int kend = x > w.low ? 0 : 1;
        for (int k = kstart; k >= kend; --k) {
            int s = slots + w.copies - k;
            int z = zeros + (k == 0);
            if (s > nw || z > nj) continue;
            counts_.push_back(k);
            if (k) emit(x, s, z);
            if (!sink_.stop && x < ACE && x - w.low + 2 <= w.length) walk(x + 1, s, z);
            counts_.pop_back();
            if (sink_.stop) return;
        }
    }

    // _Gen._emit: every parallel with these natural counts; wild-only ranks extend at the top.
    void emit(int high, int slots, int zeros) {
        const Walk& w = walk_;
        const std::vector<int>& twos = p_.twos;
        const std::vector<int>& jokers = p_.jokers;
        int extra = w.length - (high - w.low + 1);
        int z = zeros + extra;
        int wild = slots + w.copies * extra;
        int top = std::min(ACE, high + extra);
        int ntwos = static_cast<int>(twos.size());
        int njokers = static_cast<int>(jokers.size());
        if (z > njokers || wild > ntwos + njokers) return;
        if (w.floored && le2(top, wild == 0, w.ftop, w.fpure)) return;
        // picks: for each rank with k naturals, its combinations (itertools order)
        std::vector<std::vector<std::vector<int>>> levels;
        for (size_t i = 0; i < counts_.size(); ++i) {
            int k = counts_[i];
            if (!k) continue;
            std::vector<std::vector<int>> picks;
            for_combinations(p_.nat[w.low + static_cast<int>(i)], k, [&](const int* c, int kk) {
                picks.emplace_back(c, c + kk);
                return true;
            });
            levels.push_back(std::move(picks));
        }
        size_t base = levels.size();
        int lo = std::max(z, wild - ntwos);
        int hi = std::min(njokers, wild);
        for (int used = lo; used <= hi; ++used) {
            // itertools.product(*picks, combinations(jokers, used), combinations(twos, wild - used))
            levels.resize(base);
            std::vector<std::vector<int>> js, ts;
            for_combinations(jokers, used, [&](const int* c, int kk) {
                js.emplace_back(c, c + kk);
                return true;
            });
            for_combinations(twos, wild - used, [&](const int* c, int kk) {
                ts.emplace_back(c, c + kk);
                return true;
            });
            levels.push_back(std::move(js));
            levels.push_back(std::move(ts));
            std::vector<int> cards;
            if (!product(levels, 0, cards, top, wild == 0)) return;
        }
    }

    // itertools.product over the levels (the last varies fastest): one parallel each.
    bool product(const std::vector<std::vector<std::vector<int>>>& levels, size_t i, std::vector<int>& cards, int top,
                 bool pure) {
        if (i == levels.size()) {
            const Walk& w = walk_;
            return sink_.emit(cards.data(), static_cast<int>(cards.size()), PARALLEL, top, w.length, w.copies, false,
                              pure);
        }
        for (const std::vector<int>& group : levels[i]) {
            size_t before = cards.size();
            cards.insert(cards.end(), group.begin(), group.end());
            bool go = product(levels, i + 1, cards, top, pure);
            cards.resize(before);
            if (!go) return false;
        }
        return true;
    }
};

void check_combo(int kind, int top, int length, int copies) {
    if (kind < LEAD || kind > PARALLEL) throw std::invalid_argument("zsy core: unknown combination kind");
    if (top < -1000 || top > 1000 || length < 1 || length > N_CARDS || copies < 1 || copies > N_CARDS)
        throw std::invalid_argument("zsy core: combination fields out of range");
}

// moves._moves: the moves of a hand that beat a combination (every lead for LEAD), into the sink.
void generate(const Parts& p, Sink& sink, const Move& b, bool bombs) {
    Gen gen(p, sink);
    if (b.kind == LEAD) {
        gen.singles(0);
        gen.sets(false, 0, false, 0, 0);
        gen.straights(false, 0, false, 0, 0, 0);
        gen.parallels(false, 0, 0, false, 0, 0);
        return;
    }
    if (bombs && b.kind == SET && b.copies == 4) {  // Combo.is_bomb
        gen.sets(true, 4, true, b.top, b.pure);
        return;
    }
    if (b.kind == SINGLE)
        gen.singles(b.top);
    else if (b.kind == SET)
        gen.sets(true, b.copies, true, b.top, b.pure);
    else if (b.kind == STRAIGHT)
        gen.straights(true, b.length, true, b.flush, b.top, b.pure);
    else
        gen.parallels(true, b.copies, b.length, true, b.top, b.pure);
    if (bombs) gen.sets(true, 4, false, 0, 0);
}

Move combo_of(int kind, int top, int length, int copies, bool flush, bool pure) {
    check_combo(kind, top, length, copies);
    Move b;
    b.kind = kind;
    b.top = top;
    b.length = length;
    b.copies = copies;
    b.flush = flush;
    b.pure = pure;
    return b;
}

// legal_moves / iter_moves: the moves as plain tuples (skipping `skip`, at most `limit`; -1: all).
py::list moves(const std::vector<int>& counts, int kind, int top, int length, int copies, bool flush, bool pure,
               bool bombs, long long skip, long long limit) {
    Move b = combo_of(kind, top, length, copies, flush, pure);
    if (skip < 0) throw std::invalid_argument("zsy core: skip must be >= 0");
    Parts p(checked_counts(counts));
    Sink sink(skip, limit);
    generate(p, sink, b, bombs);
    return sink.out;
}

// ---------------------------------------------------------------------------------------
// The two-player endgame (endgame.py _Search.wins, and winning_moves' loop over it).

std::vector<int> counts_of(uint64_t mask) {
    std::vector<int> counts(N_CARDS, 0);
    for (int i = 0; i < N_CARDS; ++i) counts[i] = static_cast<int>((mask >> i) & 1);
    return counts;
}

uint64_t mask_of(const std::vector<int>& counts) {
    uint64_t mask = 0;
    for (int i = 0; i < N_CARDS; ++i)
        if (counts[i]) mask |= uint64_t{1} << i;
    return mask;
}

struct Position {
    uint64_t mover, other;
    Move beat;
    bool operator==(const Position& o) const { return mover == o.mover && other == o.other && beat == o.beat; }
};

uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

uint64_t hash_move(const Move& m) {
    uint64_t h = mix(m.cards, static_cast<uint64_t>(m.kind + 1));
    h = mix(h, static_cast<uint64_t>(m.top + 1000) | (static_cast<uint64_t>(m.length) << 16) |
                   (static_cast<uint64_t>(m.copies) << 32) | (static_cast<uint64_t>(m.flush) << 48) |
                   (static_cast<uint64_t>(m.pure) << 49));
    return h;
}

struct PositionHash {
    size_t operator()(const Position& p) const {
        return static_cast<size_t>(mix(mix(p.mover, p.other), hash_move(p.beat)));
    }
};

struct HandBeat {
    uint64_t hand;
    Move beat;
    bool operator==(const HandBeat& o) const { return hand == o.hand && beat == o.beat; }
};

struct HandBeatHash {
    size_t operator()(const HandBeat& k) const { return static_cast<size_t>(mix(k.hand, hash_move(k.beat))); }
};

struct TooBig {};

// endgame._Search: the negamax with its memo, its moves cache (lru_cache) and its node count.
class Endgame {
   public:
    Endgame(bool bombs, long long max_nodes, std::function<bool()> expired)
        : bombs_(bombs), max_nodes_(max_nodes), expired_(std::move(expired)) {}

    long long nodes = 0;

    // _Search.moves: legal_moves(hand, to_beat), kept.
    const std::vector<Move>& moves(uint64_t hand, const Move& beat) {
        HandBeat key{hand, beat};
        auto hit = cache_.find(key);
        if (hit != cache_.end()) return hit->second;
        std::vector<Move> found;
        Parts p(counts_of(hand));
        Sink sink(0, -1);
        sink.collect = &found;
        generate(p, sink, beat, bombs_);
        return cache_.emplace(key, std::move(found)).first->second;
    }

    // _Search.wins: whether the player to move (holding `mover`) goes out first.
    bool wins(uint64_t mover, uint64_t other, const Move& beat) {
        Position key{mover, other, beat};
        auto hit = memo_.find(key);
        if (hit != memo_.end()) return hit->second;
        count();
        bool won = false;
        // a copy: the cache may rehash while the children are searched
        std::vector<Move> options = moves(mover, beat);
        for (const Move& move : options) {
            uint64_t rest = mover & ~move.cards;
            if (!rest || !wins(other, rest, move)) {
                won = true;
                break;
            }
        }
        if (!won && beat.kind != LEAD) won = !wins(other, mover, Move{});  // pass: the other leads anew
        memo_[key] = won;
        return won;
    }

   private:
    bool bombs_;
    long long max_nodes_;
    std::function<bool()> expired_;
    std::unordered_map<Position, bool, PositionHash> memo_;
    std::unordered_map<HandBeat, std::vector<Move>, HandBeatHash> cache_;

    // _Search._count: past max_nodes too big; every 256 nodes the deadline (one Python call).
    void count() {
        ++nodes;
        if (nodes > max_nodes_) throw TooBig{};
        if (!(nodes & 255) && expired_()) throw Stopped{};
    }
};

// A Python callback (the deadline check) read as Python reads `if expired():`, by its truth: an
// answer that is not a bool is no cast error (a RuntimeError), and what is not callable is refused
// with a TypeError before the search starts; an exception the callback raises comes back as itself.
std::function<bool()> truth_of(const py::object& fn) {
    if (!PyCallable_Check(fn.ptr())) throw py::type_error("zsy core: expired must be callable");
    return [fn]() { return static_cast<bool>(py::bool_(fn())); };
}

// endgame.wins (all=false) or winning_moves (all=true): (outcome, flags, pass wins, nodes); outcome 0
// answered, 1 too big (EndgameTooBig), 2 out of time (SolverTimeout). wins: flags is [won]; winning_moves:
// one flag per legal move of the hand, in legal_moves order, up to the first that ran out of budget.
py::tuple endgame(const std::vector<int>& hand, const std::vector<int>& opponent, int kind, int top, int length,
                  int copies, bool flush, bool pure, bool bombs, long long max_nodes, const py::object& expired_fn,
                  bool all) {
    auto expired = truth_of(expired_fn);
    Move beat = combo_of(kind, top, length, copies, flush, pure);
    uint64_t mine = mask_of(checked_counts(hand));
    uint64_t theirs = mask_of(checked_counts(opponent));
    Endgame search(bombs, max_nodes, std::move(expired));
    py::list flags;
    bool pass_wins = false;
    int outcome = 0;
    try {
        if (!all) {
            flags.append(search.wins(mine, theirs, beat));
        } else {
            std::vector<Move> options = search.moves(mine, beat);
            for (const Move& move : options) {
                uint64_t rest = mine & ~move.cards;
                flags.append(!rest || !search.wins(theirs, rest, move));
            }
            if (beat.kind != LEAD) pass_wins = !search.wins(theirs, mine, Move{});
        }
    } catch (const TooBig&) {
        outcome = 1;
    } catch (const Stopped&) {
        outcome = 2;
    }
    return py::make_tuple(outcome, flags, pass_wins, search.nodes);
}

// ---------------------------------------------------------------------------------------
// The fewest-plays search (fewest.py): rank counts packed 3 bits a rank (index 0 is rank 3).

constexpr int TOP = ACE - 3;  // fewest._TOP, the index of the ace
constexpr int UNBOUNDED = 1 << 20;

int count_at(uint64_t packed, int x) { return static_cast<int>((packed >> (3 * x)) & 7); }

// One structure (fewest._Group, _Straight or _Parallel), compact: the naturals it takes as
// packed counts, the jokers and 2s it takes, and its shape.
struct Choice {
    uint64_t taken = 0;  // packed natural counts the structure uses
    int8_t kind = -1;    // 0 group, 1 straight, 2 parallel; -1 none (an empty state)
    int8_t rank = 0;     // group: its rank index
    int8_t jokers = 0;
    int8_t twos = 0;
    int8_t copies = 0;
    int8_t length = 0;
};

// A structure reached from a state: the state after it (fewest._Next).
struct Next {
    uint64_t packed;
    int j, t;
    Choice choice;
};

// fewest._straights: straights over natural ranks i = r0 < r1 < ...; jokers fill the gaps
// and extend. The same explicit stack (last in, first out) as the Python, so the same order.
template <class F>
bool straights_from(uint64_t packed, int i, int j, int t, F&& f) {
    struct Item {
        uint64_t taken;
        int m, x, gaps;
    };
    std::vector<Item> stack{{uint64_t{1} << (3 * i), 1, i, 0}};
    while (!stack.empty()) {
        Item it = stack.back();
        stack.pop_back();
        for (int k = it.gaps; k <= j; ++k) {
            if (3 <= it.m + k && it.m + k <= MAX_STRAIGHT) {
                Choice c;
                c.taken = it.taken;
                c.kind = 1;
                c.jokers = static_cast<int8_t>(k);
                c.length = static_cast<int8_t>(it.m + k);
                c.copies = 1;
                if (!f(Next{packed - it.taken, j - k, t, c})) return false;
            }
        }
        int hi = std::min(TOP, it.x + 1 + j - it.gaps);
        for (int y = it.x + 1; y <= hi; ++y) {
            int g2 = it.gaps + y - it.x - 1;
            if (it.m + 1 + g2 > MAX_STRAIGHT) break;
            if (count_at(packed, y)) stack.push_back({it.taken + (uint64_t{1} << (3 * y)), it.m + 1, y, g2});
        }
    }
    return true;
}

// fewest._parallels: from rank i, per rank x a count of naturals (most first); wilds fill the rest.
template <class F>
bool parallels_from(uint64_t packed, int i, int j, int t, int copies, int x, uint64_t taken, int slots, int zeros,
                    F&& f) {
    int wilds = j + t;
    for (int k = std::min(copies, count_at(packed, x)); k >= (x == i ? 1 : 0); --k) {
        int s = slots + copies - k;
        int z = zeros + (k == 0);
        if (s > wilds || z > j) continue;
        uint64_t here = k ? taken + (static_cast<uint64_t>(k) << (3 * x)) : taken;
        if (k) {
            int span = x - i + 1;
            for (int length = std::max(3, span); length <= MAX_STRAIGHT; ++length) {
                int extra = length - span;
                int zz = z + extra;
                int w = s + copies * extra;
                if (zz > j || w > wilds) break;
                for (int a = std::max(zz, w - t); a <= std::min(j, w); ++a) {
                    Choice c;
                    c.taken = here;
                    c.kind = 2;
                    c.copies = static_cast<int8_t>(copies);
                    c.length = static_cast<int8_t>(length);
                    c.jokers = static_cast<int8_t>(a);
                    c.twos = static_cast<int8_t>(w - a);
                    if (!f(Next{packed - here, j - a, t - (w - a), c})) return false;
                }
            }
        }
        if (x < TOP && !parallels_from(packed, i, j, t, copies, x + 1, here, s, z, f)) return false;
    }
    return true;
}

// fewest._structures: the straights, then parallels of 2, 3, ... copies.
template <class F>
bool structures(uint64_t packed, int i, int j, int t, F&& f) {
    if (!straights_from(packed, i, j, t, f)) return false;
    for (int copies = 2; copies <= count_at(packed, i) + j + t; ++copies)
        if (!parallels_from(packed, i, j, t, copies, i, 0, 0, 0, f)) return false;
    return true;
}

int lowest_index(uint64_t packed) {
    int bit = 0;
    while (!((packed >> bit) & 1)) ++bit;
    return bit / 3;
}


// fewest._Search: exact fewest plays on rank counts, branch and bound, the same memo of exact
// values and of proven lower bounds, the same step count and checks every 1024 steps.
class Search {
   public:
    Search(std::function<bool()> expired, long long max_states)
        : expired_(std::move(expired)), max_states_(max_states) {}

    int best(uint64_t packed, int j, int t, bool g) { return solve(packed, j, t, g, UNBOUNDED); }

    int solve(uint64_t packed, int j, int t, bool g, int limit) {
        uint64_t key = make_key(packed, j, t, g);
        auto hit = memo_.find(key);
        if (hit != memo_.end()) return hit->second.first;
        if (packed == 0) {
            int value = (g || !(j || t)) ? 0 : (t ? 1 : j);
            memo_.emplace(key, std::make_pair(value, Choice{}));
            return value;
        }
        auto lowhit = low_.find(key);
        int low = lowhit == low_.end() ? 1 : lowhit->second;
        if (low >= limit) return low;
        tick();
        int i = lowest_index(packed);
        int n = count_at(packed, i);
        int best = 1 + solve(packed - (static_cast<uint64_t>(n) << (3 * i)), j, t, true, limit - 1);
        Choice choice;
        choice.kind = 0;
        choice.rank = static_cast<int8_t>(i);
        choice.taken = static_cast<uint64_t>(n) << (3 * i);
        if (best > low) {
            structures(packed, i, j, t, [&](const Next& nx) {
                tick();
                int v = 1 + solve(nx.packed, nx.j, nx.t, g, std::min(limit, best) - 1);
                if (v < best) {
                    best = v;
                    choice = nx.choice;
                    if (best <= low) return false;
                }
                return true;
            });
        }
        if (best < limit) {
            memo_[key] = std::make_pair(best, choice);
            return best;
        }
        low_[key] = limit;
        return limit;
    }

    // fewest._walk: the structures of the best split, read back from the memo.
    std::vector<Choice> walk(uint64_t packed, int j, int t) const {
        bool g = false;
        std::vector<Choice> out;
        while (packed) {
            auto hit = memo_.find(make_key(packed, j, t, g));
            if (hit == memo_.end() || hit->second.second.kind < 0)
                throw std::runtime_error("zsy core: the fewest-plays memo lacks a state of the best split");
            const Choice& c = hit->second.second;
            out.push_back(c);
            packed -= c.taken;
            if (c.kind == 0) g = true;
            j -= c.jokers;
            t -= c.twos;
        }
        return out;
    }

   private:
    std::unordered_map<uint64_t, std::pair<int, Choice>> memo_;
    std::unordered_map<uint64_t, int> low_;
    std::function<bool()> expired_;
    long long max_states_;
    long long calls_ = 0;

    static uint64_t make_key(uint64_t packed, int j, int t, bool g) {
        return packed | (static_cast<uint64_t>(j) << 40) | (static_cast<uint64_t>(t) << 48) |
               (static_cast<uint64_t>(g) << 56);
    }

    // _Search._tick: every 1024 steps, the deadline and the stop token (one Python call), then the cap.
    void tick() {
        ++calls_;
        if ((calls_ & 1023) == 0) {
            if (expired_()) throw Stopped{};
            if (static_cast<long long>(memo_.size() + low_.size()) > max_states_) throw Stopped{};
        }
    }
};

void check_state(uint64_t packed, int j, int t) {
    if (packed >> 36) throw std::invalid_argument("zsy core: packed rank counts take 36 bits");
    if (j < 0 || j > 2 || t < 0 || t > 4) throw std::invalid_argument("zsy core: at most 2 jokers and 4 twos");
    for (int x = 0; x <= TOP; ++x)
        if (count_at(packed, x) > 4) throw std::invalid_argument("zsy core: at most 4 cards of a rank");
}

// A choice as plain Python values: (0, rank) | (1, ranks, jokers) | (2, copies, length, ((rank, count), ...),
// jokers, twos), the fields of fewest._Group, _Straight and _Parallel.
py::tuple choice_tuple(const Choice& c) {
    if (c.kind == 0) return py::make_tuple(0, static_cast<int>(c.rank));
    if (c.kind == 1) {
        py::list ranks;
        for (int x = 0; x <= TOP; ++x)
            if (count_at(c.taken, x)) ranks.append(x);
        return py::make_tuple(1, py::tuple(ranks), static_cast<int>(c.jokers));
    }
    py::list naturals;
    for (int x = 0; x <= TOP; ++x)
        if (count_at(c.taken, x)) naturals.append(py::make_tuple(x, count_at(c.taken, x)));
    return py::make_tuple(2, static_cast<int>(c.copies), static_cast<int>(c.length), py::tuple(naturals),
                          static_cast<int>(c.jokers), static_cast<int>(c.twos));
}

// fewest._greedy: lowest rank first, whichever of its group, parallels (most copies first) or
// straights plays the most cards, among the first 4,000 structures looked at.
py::list greedy(uint64_t packed, int j, int t, int look) {
    check_state(packed, j, t);
    py::list out;
    while (packed) {
        int i = lowest_index(packed);
        int n = count_at(packed, i);
        Choice group;
        group.kind = 0;
        group.rank = static_cast<int8_t>(i);
        group.taken = static_cast<uint64_t>(n) << (3 * i);
        Next best{packed - group.taken, j, t, group};
        int most = n;
        int looked = 0;
        auto consider = [&](const Next& nx) {
            if (looked >= look) return false;
            ++looked;
            int played = static_cast<int>(nx.choice.copies) * nx.choice.length;  // straights: copies 1
            if (played > most) {
                best = nx;
                most = played;
            }
            return true;
        };
        bool go = true;
        for (int c = n + j + t; c >= 2 && go; --c) go = parallels_from(packed, i, j, t, c, i, 0, 0, 0, consider);
        if (go) straights_from(packed, i, j, t, consider);
        packed = best.packed;
        j = best.j;
        t = best.t;
        out.append(choice_tuple(best.choice));
    }
    return out;
}

// fewest_plays' search: (1, [choices]) when a split with fewer than `limit` plays exists (the best
// one, read back), (0, []) when proven that none does, (2, []) when the budget ran out.
py::tuple fewest(uint64_t packed, int j, int t, int limit, const py::object& expired_fn, long long max_states) {
    check_state(packed, j, t);
    auto expired = truth_of(expired_fn);
    Search search(std::move(expired), max_states);
    try {
        if (search.solve(packed, j, t, false, limit) >= limit) return py::make_tuple(0, py::list());
        py::list out;
        for (const Choice& c : search.walk(packed, j, t)) out.append(choice_tuple(c));
        return py::make_tuple(1, out);
    } catch (const Stopped&) {
        return py::make_tuple(2, py::list());
    }
}

// plays_after's searches, one shared memo: the fewest plays of each state (packed, jokers, 2s)
// in order, up to the first that ran out of budget (the list is then shorter than the states).
py::list plays_after(const std::vector<std::tuple<uint64_t, int, int>>& states, const py::object& expired_fn,
                     long long max_states) {
    for (const auto& [packed, j, t] : states) check_state(packed, j, t);
    auto expired = truth_of(expired_fn);
    Search search(std::move(expired), max_states);
    py::list out;
    try {
        for (const auto& [packed, j, t] : states) out.append(search.best(packed, j, t, false));
    } catch (const Stopped&) {
    }
    return out;
}

}  // namespace

PYBIND11_MODULE(_zsy, m) {
    m.doc() = "Zheng Shang You's compiled core: move generation and the fewest-plays search (see solver/zsy).";
    m.def("moves", &moves, py::arg("counts"), py::arg("kind"), py::arg("top"), py::arg("length"), py::arg("copies"),
          py::arg("flush"), py::arg("pure"), py::arg("bombs"), py::arg("skip"), py::arg("limit"),
          "The moves of moves._moves as (counts bytes, kind index, top, length, copies, flush, pure).");
    m.def("endgame", &endgame, py::arg("hand"), py::arg("opponent"), py::arg("kind"), py::arg("top"),
          py::arg("length"), py::arg("copies"), py::arg("flush"), py::arg("pure"), py::arg("bombs"),
          py::arg("max_nodes"), py::arg("expired"), py::arg("all"),
          "endgame.wins / winning_moves' negamax: (outcome, flags, pass wins, nodes).");
    m.def("greedy", &greedy, py::arg("packed"), py::arg("jokers"), py::arg("twos"), py::arg("look"),
          "fewest._greedy's structures as plain tuples.");
    m.def("fewest", &fewest, py::arg("packed"), py::arg("jokers"), py::arg("twos"), py::arg("limit"),
          py::arg("expired"), py::arg("max_states"), "fewest_plays' exact search: (outcome, structures).");
    m.def("plays_after", &plays_after, py::arg("states"), py::arg("expired"), py::arg("max_states"),
          "plays_after's shared search: the fewest plays of each state until the budget runs out.");
}
