// Manipulation Shanghai's compiled core: the dynamic program of solver/manipulation/natural.py.
//
// natural_best(stages, budget, target) is natural._Program(stages, budget).best(target), step for
// step: the same states (one 64-bit int laid out as in natural.py), the same options in the same
// order (natural._suit_options), the same layers kept in insertion order (a Python dict), the same
// stable sort of the last layer, the same depth-first completion with its failed-state memo, and the
// same work counting against the same budget. So it gives up exactly where the Python gives up and
// returns the very same path. The Python side (natural._native_best) validates the input before it
// crosses and turns the packed options back into natural._Option values.
//
// No global mutable state: the option tables are built once (a function-local static, thread safe)
// and never changed; everything else lives in one call's Program.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace {

// ---- the state's layout (natural.py: _SUIT_BITS, _RUNS, _GS, _GM, _LOW, _SETS) ----------------
constexpr int kSuitBits = 6;
constexpr std::int64_t kRuns = (1 << kSuitBits) - 1;
constexpr int kGS = 24;  // the copies going into sets at this position: their sum (5 bits)
constexpr int kGM = 29;  // ... and the most of one suit (3 bits)
constexpr int kLow = 32;  // the copies each suit used at the ace's first column (3 bits a suit)
constexpr std::int64_t kSets = std::int64_t{255} << kGS;
constexpr int kMaxCopies = 4;  // four decks at most: at most four open runs a suit
constexpr int kMaxStages = 60;  // 14 rank positions of four suits (56), with room; k < 64 in the memo key

// ---- natural._CODES: one suit's open runs, a sorted tuple over {1, 2, 3} of length 0-4 ------------
// Ordered as Python's sorted(..., key=lambda c: (len(c), c)); a code is known by its counts of
// ones, twos and threes (a sorted tuple is), so the id is looked up in a 5x5x5 table.
struct Codes {
    std::vector<std::array<int, 3>> counts;  // id -> (ones, twos, threes)
    std::array<std::array<std::array<int, 5>, 5>, 5> id{};  // (ones, twos, threes) -> id, -1 if none
    std::vector<bool> closed;  // natural._CLOSED: every run of three or more
};

const Codes& codes() {
    static const Codes table = [] {
        Codes c;
        for (auto& a : c.id)
            for (auto& b : a) b.fill(-1);
        // Sorted tuples of one length in lexicographic order: more ones first, then more twos.
        for (int n = 0; n <= kMaxCopies; ++n)
            for (int ones = n; ones >= 0; --ones)
                for (int twos = n - ones; twos >= 0; --twos) {
                    int threes = n - ones - twos;
                    c.id[ones][twos][threes] = static_cast<int>(c.counts.size());
                    c.counts.push_back({ones, twos, threes});
                    c.closed.push_back(ones == 0 && twos == 0);
                }
        return c;
    }();
    return table;
}

// ---- natural._Option and natural._suit_options ------------------------------------------------
struct Option {
    int used;  // copies used
    int into_sets;  // copies going into sets
    int code;  // the suit's open runs after (an id of Codes)
    int continued;  // runs of three or more continued
    int started;  // runs started
    int packed;  // the five above in one int, for the Python side (see natural._unpack)
};

int pack(int used, int g, int code, int c3, int started) {
    return used | (g << 3) | (code << 6) | (c3 << 12) | (started << 15);
}

using Options = std::vector<Option>;

// natural._suit_options(runs, avail, need, sets), the same options in the same order. Runs of one
// or two cards must continue, a run of three or more may stop; at least ``need`` copies used, at
// most ``avail``; no run starts and no copy is left unused while a run of three or more stops.
Options suit_options(int runs, int avail, int need, bool sets) {
    const Codes& c = codes();
    const auto& have = c.counts[runs];
    int must = have[0] + have[1];
    int lng = have[2];
    Options out;
    if (must > avail) return out;
    // grown: the short runs one card longer (a one becomes a two, a two a three)
    for (int c3 = 0; c3 <= lng; ++c3) {
        for (int started = 0; started <= avail - must - c3; ++started) {
            if (started && c3 < lng) continue;
            int ones = started, twos = have[0], threes = have[1] + c3;
            int code = c.id[ones][twos][threes];
            int top = sets ? avail - must - c3 - started : 0;
            for (int g = 0; g <= top; ++g) {
                int used = must + c3 + started + g;
                if (used >= need && (c3 == lng || used == avail))
                    out.push_back({used, g, code, c3, started, pack(used, g, code, c3, started)});
            }
        }
    }
    return out;
}

// Every (runs, avail, need, sets) the program asks for, built once: avail and need 0-4.
struct OptionTables {
    std::vector<Options> table;
    static std::size_t key(int runs, int avail, int need, bool sets) {
        return ((static_cast<std::size_t>(runs) * (kMaxCopies + 1) + avail) * (kMaxCopies + 1) + need) * 2 + sets;
    }
};

const OptionTables& option_tables() {
    static const OptionTables tables = [] {
        OptionTables t;
        int n = static_cast<int>(codes().counts.size());
        t.table.resize(OptionTables::key(n, 0, 0, false));
        for (int runs = 0; runs < n; ++runs)
            for (int avail = 0; avail <= kMaxCopies; ++avail)
                for (int need = 0; need <= kMaxCopies; ++need)
                    for (int sets = 0; sets < 2; ++sets)
                        t.table[OptionTables::key(runs, avail, need, sets)] = suit_options(runs, avail, need, sets);
        return t;
    }();
    return tables;
}

const Options& options_for(int runs, int avail, int need, bool sets) {
    static const Options none;
    if (avail < 0) return none;  // Python: no option (range of a negative length, or must > avail)
    if (need < 0) need = 0;  // "at least a negative count" is "at least none"
    if (avail > kMaxCopies || need > kMaxCopies || runs < 0 || runs >= static_cast<int>(codes().counts.size()))
        throw std::invalid_argument("natural_best: copies out of range");
    return option_tables().table[OptionTables::key(runs, avail, need, sets)];
}

// ---- natural._Stage --------------------------------------------------------------------------
struct Stage {
    int suit, card, copies, table, column, later, hand;
};

// ---- a layer: an insertion-ordered map state -> (best hand cards, way back) --------------------
// Python's dict keeps insertion order, and an update of a present key keeps its place: the nodes
// vector is that order; an open-addressing index finds a state's node.
constexpr std::size_t kNoCap = static_cast<std::size_t>(-1);  // a layer with no cap on its states

struct Node {
    std::int64_t state;
    int val;
    int prev;  // the node of the previous layer this one came from
    int option;  // packed option taken (0 is natural._SKIP)
};

class Layer {
public:
    std::vector<Node> nodes;

    Layer() { slots_.assign(16, -1); }

    // The node of ``state``, or -1.
    int find(std::int64_t state) const {
        std::size_t mask = slots_.size() - 1;
        for (std::size_t i = hash(state) & mask;; i = (i + 1) & mask) {
            int at = slots_[i];
            if (at < 0) return -1;
            if (nodes[at].state == state) return at;
        }
    }

    std::size_t cap = kNoCap;  // the most states kept (plain.py's beam): a new state past it is dropped

    // nxt[state] = val; back[state] = (prev, option) when val beats what is there (or nothing is).
    void offer(std::int64_t state, int val, int prev, int option) {
        std::size_t mask = slots_.size() - 1;
        std::size_t i = hash(state) & mask;
        for (;; i = (i + 1) & mask) {
            int at = slots_[i];
            if (at < 0) break;
            Node& n = nodes[at];
            if (n.state == state) {
                if (val > n.val) {
                    n.val = val;
                    n.prev = prev;
                    n.option = option;
                }
                return;
            }
        }
        if (nodes.size() >= cap) return;
        slots_[i] = static_cast<int>(nodes.size());
        nodes.push_back({state, val, prev, option});
        if (nodes.size() * 2 > slots_.size()) grow();
    }

private:
    std::vector<int> slots_;

    static std::size_t hash(std::int64_t state) {
        std::uint64_t x = static_cast<std::uint64_t>(state);  // splitmix64's finaliser
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ULL;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebULL;
        x ^= x >> 31;
        return static_cast<std::size_t>(x);
    }

    void grow() {
        slots_.assign(slots_.size() * 2, -1);
        std::size_t mask = slots_.size() - 1;
        for (std::size_t at = 0; at < nodes.size(); ++at) {
            std::size_t i = hash(nodes[at].state) & mask;
            while (slots_[i] >= 0) i = (i + 1) & mask;
            slots_[i] = static_cast<int>(at);
        }
    }
};

struct OutOfBudget {};  // natural._OutOfBudget, caught in natural_best

struct Move {
    int option;  // packed
    std::int64_t next;
    int gain;
};

// ---- natural._Program ------------------------------------------------------------------------
class Program {
public:
    // ``cap``: the most states a layer keeps (plain.py's beam; past it, new states are dropped).
    Program(std::vector<Stage> stages, std::int64_t budget, std::size_t cap = kNoCap)
        : stages_(std::move(stages)), budget_(budget), cap_(cap) {
        left_.assign(stages_.size() + 1, 0);  // hand copies in the stages from k on
        for (std::size_t k = stages_.size(); k-- > 0;) left_[k] = left_[k + 1] + stages_[k].hand;
    }

    // _Program.best: (found, most hand cards, the path's packed options in stage order).
    std::int64_t work() const { return work_; }

    bool best(int target, int& value, std::vector<int>& path) {
        std::vector<Layer> layers;  // layers[j] holds the states after stage j, with their way back
        Layer cur;
        cur.offer(0, 0, -1, 0);
        std::size_t k = 0;
        const std::size_t n = stages_.size();
        while (k < n && left_[k] > 0) {
            Layer nxt;
            nxt.cap = cap_;
            layer(k, cur, nxt, target - left_[k + 1]);
            if (work_ > budget_) throw OutOfBudget{};
            layers.push_back(std::move(cur));
            cur = std::move(nxt);
            ++k;
            if (cur.nodes.empty()) return false;
        }
        // sorted(cur.items(), key=lambda item: -item[1]): stable, ties in insertion order
        std::vector<int> order(cur.nodes.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return cur.nodes[a].val > cur.nodes[b].val; });
        for (int at : order) {
            const Node& node = cur.nodes[at];
            if (node.val < target) return false;
            std::vector<int> tail;  // reversed, as complete() builds it
            if (complete(k, node.state, tail)) {
                // the way back through the layers (layers[j + 1] for stage j's choice is cur at the end)
                std::vector<int> head;
                int where = at;
                const Layer* from = &cur;
                for (std::size_t j = layers.size(); j-- > 0;) {
                    const Node& back = from->nodes[where];
                    head.push_back(back.option);
                    where = back.prev;
                    from = &layers[j];
                }
                path.assign(head.rbegin(), head.rend());
                path.insert(path.end(), tail.rbegin(), tail.rend());
                value = node.val;
                return true;
            }
        }
        return false;
    }

private:
    std::vector<Stage> stages_;
    std::int64_t budget_;
    std::size_t cap_;
    std::int64_t work_ = 0;
    std::vector<int> left_;
    std::unordered_set<std::int64_t> failed_;  // (state, stage) pairs known not to complete: st << 6 | k

    static int runs_of(std::int64_t st, int suit) { return static_cast<int>((st >> (kSuitBits * suit)) & kRuns); }

    // _Program._options: the options at stage k from state st (at the ace's second column they
    // depend on the copies its first column took). ``sub`` is set to the copies not counted as hand.
    const Options& options(std::size_t k, std::int64_t st, int& sub) const {
        const Stage& sg = stages_[k];
        int runs = runs_of(st, sg.suit);
        if (sg.column == 2) {
            int taken = static_cast<int>((st >> (kLow + 3 * sg.suit)) & 7);
            sub = sg.table > taken ? sg.table - taken : 0;
            return options_for(runs, sg.copies - taken, sub, false);
        }
        sub = sg.table;
        return options_for(runs, sg.copies, sg.column ? 0 : sg.table, true);
    }

    // _Program._moves: every move from st at stage k (after the fourth suit, set copies close).
    void moves(std::size_t k, std::int64_t st, std::vector<Move>& out) const {
        const Stage& sg = stages_[k];
        int sub = 0;
        const Options& opts = options(k, st, sub);
        int shift = kSuitBits * sg.suit;
        int runs = runs_of(st, sg.suit);
        int gsum = static_cast<int>((st >> kGS) & 31), gmax = static_cast<int>((st >> kGM) & 7);
        std::int64_t base = st & ~kSets;
        int low = kLow + 3 * sg.suit;
        out.clear();
        for (const Option& o : opts) {
            int gs = gsum + o.into_sets;
            int gm = o.into_sets > gmax ? o.into_sets : gmax;
            if (gs + sg.later < 3 * gm) continue;  // too few copies here to make sets of them
            std::int64_t delta = static_cast<std::int64_t>(o.code - runs) * (std::int64_t{1} << shift);
            std::int64_t ns = sg.suit == 3
                                  ? base + delta
                                  : base + delta + (std::int64_t{gs} << kGS) + (std::int64_t{gm} << kGM);
            if (sg.column == 1) ns = (ns & ~(std::int64_t{7} << low)) | (std::int64_t{o.used} << low);
            out.push_back({o.packed, ns, o.used > sub ? o.used - sub : 0});
        }
    }

    // _Program.complete: a path from stage k to the end, its packed options appended reversed.
    bool complete(std::size_t k, std::int64_t st, std::vector<int>& rest) {
        const std::size_t n = stages_.size();
        int skipped = 0;
        while (k < n) {  // stages where nothing happens: passed over, no work counted
            const Stage& sg = stages_[k];
            if (sg.copies || sg.column || runs_of(st, sg.suit) || (sg.suit == 3 && (st & kSets))) break;
            ++k;
            ++skipped;
        }
        if (k == n) {
            const Codes& c = codes();
            for (int s = 0; s < 4; ++s)
                if (!c.closed[runs_of(st, s)]) return false;
            rest.insert(rest.end(), skipped, 0);
            return true;
        }
        std::int64_t key = (st << 6) | static_cast<std::int64_t>(k);
        if (failed_.count(key)) return false;
        std::vector<Move> found;
        moves(k, st, found);
        work_ += static_cast<std::int64_t>(found.size()) + 1;
        if (work_ > budget_) throw OutOfBudget{};
        for (const Move& m : found) {
            if (complete(k + 1, m.next, rest)) {
                rest.push_back(m.option);
                rest.insert(rest.end(), skipped, 0);
                return true;
            }
        }
        failed_.insert(key);
        return false;
    }

    // _Program._layer: every state's moves at stage k, keeping for each next state the most hand
    // cards (at least ``need``) and where it came from. Work is counted as the Python counts it.
    void layer(std::size_t k, const Layer& cur, Layer& nxt, int need) {
        const Stage& sg = stages_[k];
        std::vector<Move> found;
        if (sg.column) {  // an ace column: by moves()
            for (std::size_t i = 0; i < cur.nodes.size(); ++i) {
                const Node& node = cur.nodes[i];
                moves(k, node.state, found);
                work_ += static_cast<std::int64_t>(found.size()) + 1;
                for (const Move& m : found) {
                    int nv = node.val + m.gain;
                    if (nv >= need) nxt.offer(m.next, nv, static_cast<int>(i), m.option);
                }
            }
            return;
        }
        int shift = kSuitBits * sg.suit;
        bool close = sg.suit == 3;
        std::int64_t work = 0;
        for (std::size_t i = 0; i < cur.nodes.size(); ++i) {
            const Node& node = cur.nodes[i];
            std::int64_t st = node.state;
            int val = node.val;
            int runs = runs_of(st, sg.suit);
            if (!sg.copies && !runs && (!close || !(st & kSets))) {  // nothing happens here
                work += 1;
                if (val >= need) nxt.offer(st, val, static_cast<int>(i), 0);
                continue;
            }
            const Options& opts = options_for(runs, sg.copies, sg.table, true);
            work += static_cast<std::int64_t>(opts.size()) + 1;
            int gsum = static_cast<int>((st >> kGS) & 31), gmax = static_cast<int>((st >> kGM) & 7);
            std::int64_t base = st & ~kSets;
            int least = need - val;
            for (const Option& o : opts) {  // the hot loop
                int gain = o.used > sg.table ? o.used - sg.table : 0;
                if (gain < least) continue;
                int gs = gsum + o.into_sets;
                int gm = o.into_sets > gmax ? o.into_sets : gmax;
                if (gs + sg.later < 3 * gm) continue;
                std::int64_t delta = static_cast<std::int64_t>(o.code - runs) * (std::int64_t{1} << shift);
                std::int64_t ns =
                    close ? base + delta : base + delta + (std::int64_t{gs} << kGS) + (std::int64_t{gm} << kGM);
                nxt.offer(ns, val + gain, static_cast<int>(i), o.packed);
            }
        }
        work_ += work;
    }
};

// Checks what the Python side already checked (natural._native_best): a bad input is a ValueError
// (std::invalid_argument), never a crash.
std::vector<Stage> read_stages(const std::vector<std::tuple<int, int, int, int, int, int, int>>& raw) {
    if (raw.size() > static_cast<std::size_t>(kMaxStages)) throw std::invalid_argument("natural_best: too many stages");
    std::vector<Stage> out;
    out.reserve(raw.size());
    for (std::size_t k = 0; k < raw.size(); ++k) {
        const auto& [suit, card, copies, table, column, later, hand] = raw[k];
        if (suit != static_cast<int>(k % 4)) throw std::invalid_argument("natural_best: stages must go suit by suit");
        if (card < 0 || copies < 0 || copies > kMaxCopies || table < 0 || table > copies || hand < 0 ||
            hand > copies || column < 0 || column > 2 || later < 0 || later > 3 * kMaxCopies)
            throw std::invalid_argument("natural_best: a stage out of range (" + std::to_string(k) + ")");
        out.push_back({suit, card, copies, table, column, later, hand});
    }
    return out;
}

// The entry point: natural._Program(stages, budget).best(target).
// Returns (status, value, path, work): status 1 found (value and the packed options of the path),
// 0 none reaches target (the Python None), -1 out of budget (the Python _OutOfBudget); work is the
// program's count of steps when it stopped (_Program.work), for the tests.
// A target far past any hand (the sums `target - left` must not overflow: UBSan found -2^31 - 2).
constexpr int kMaxTarget = 1 << 20;
void check_target(int target) {
    if (target < -kMaxTarget || target > kMaxTarget) throw std::invalid_argument("target out of range (|target| <= 2^20)");
}

std::tuple<int, int, std::vector<int>, std::int64_t> natural_best(
    const std::vector<std::tuple<int, int, int, int, int, int, int>>& raw, std::int64_t budget, int target) {
    check_target(target);
    std::vector<Stage> stages = read_stages(raw);
    Program program(std::move(stages), budget);
    int value = 0;
    std::vector<int> path;
    try {
        if (program.best(target, value, path)) return {1, value, path, program.work()};
    } catch (const OutOfBudget&) {
        return {-1, 0, {}, program.work()};
    }
    return {0, 0, {}, program.work()};
}


// ---- natural._layout and natural._stages -----------------------------------------------------
enum Ace { kLowAce = 0, kHighAce = 1, kBothAces = 2 };  // natural._ACES: "low", "high", "both"

struct Position {
    std::array<int, 4> cards;  // the four suits' card indexes at a rank position
    int column;  // 0, or the ace's first (1) or second (2) column under ace=both
};

// natural._stages(tc, bc, ace): the stages in rank-position order, read from the end with fewer
// table cards before the first hand card.
std::vector<Stage> build_stages(const std::vector<int>& tc, const std::vector<int>& bc, int ace) {
    int lo = ace == kHighAce ? 2 : 1, hi = ace == kLowAce ? 13 : 14;  // solver.ranks.position_range
    std::vector<Position> forward;
    for (int q = lo; q <= hi; ++q) {
        int base = q == 14 ? 0 : q - 1;
        int column = ace != kBothAces || (q != 1 && q != 14) ? 0 : (q == lo ? 1 : 2);
        forward.push_back({{base, 13 + base, 26 + base, 39 + base}, column});
    }
    std::vector<Position> positions = forward;
    // The cards in position order (four suits a position): read backward when fewer table cards
    // lie after the last hand card than before the first.
    std::vector<int> order;
    for (const Position& p : forward)
        for (int i : p.cards) order.push_back(i);
    int first = -1, last = -1;
    for (int j = 0; j < static_cast<int>(order.size()); ++j)
        if (bc[order[j]]) {
            if (first < 0) first = j;
            last = j;
        }
    if (first >= 0) {
        int before = 0, after = 0;
        for (int j = 0; j < first; ++j) before += tc[order[j]];
        for (int j = last + 1; j < static_cast<int>(order.size()); ++j) after += tc[order[j]];
        if (before > after) {
            // read(order[::-1]): the columns recomputed, the first one met is column 1
            positions.clear();
            for (int q = hi; q >= lo; --q) {
                int base = q == 14 ? 0 : q - 1;
                int column = ace != kBothAces || (q != 1 && q != 14) ? 0 : (q == hi ? 1 : 2);
                positions.push_back({{base, 13 + base, 26 + base, 39 + base}, column});
            }
        }
    }
    std::vector<Stage> out;
    for (const Position& p : positions) {
        std::array<int, 4> all{};
        for (int s = 0; s < 4; ++s) all[s] = tc[p.cards[s]] + bc[p.cards[s]];
        for (int s = 0; s < 4; ++s) {
            int later = 0;
            for (int t = s + 1; t < 4; ++t) later += all[t];
            int i = p.cards[s];
            out.push_back({s, i, all[s], tc[i], p.column, later, p.column != 1 ? bc[i] : 0});
        }
    }
    return out;
}

// ---- natural._run_order and natural._natural_melds -------------------------------------------
// natural._run_order: a run's card indexes in rank order, whichever way the program read it.
std::vector<int> run_order(std::vector<int> cards, int ace) {
    if (cards.empty()) return cards;
    if (ace == kLowAce || (cards.front() % 13 && cards.back() % 13)) {  // no ace, or read low
        if (!(cards.front() < cards.back())) std::reverse(cards.begin(), cards.end());
        return cards;
    }
    bool high = ace == kHighAce;  // solver.ranks.ace_high
    if (ace == kBothAces) {
        int least = 99, most = -1;
        for (int c : cards) {
            int r = c % 13 + 1;
            if (r == 1) continue;
            least = std::min(least, r);
            most = std::max(most, r);
        }
        high = most >= 0 && 15 - least < most;
    }
    auto key = [high](int c) { return c % 13 == 0 && high ? 14 : c % 13 + 1; };
    std::stable_sort(cards.begin(), cards.end(), [&](int a, int b) { return key(a) < key(b); });
    return cards;
}

// natural._natural_melds: replay a path with the cards (by index): runs in rank order, sets in suit
// order (round robin over the copies); and the copies of each natural card the melds hold.
void natural_melds(const std::vector<Stage>& stages, const std::vector<int>& path, int ace,
                   std::vector<std::vector<int>>& melds, std::vector<int>& used) {
    used.assign(52, 0);
    std::array<std::vector<std::vector<int>>, 4> open_runs;
    std::vector<int> to_sets;
    int copies = 0;
    for (std::size_t k = 0; k < stages.size() && k < path.size(); ++k) {
        const Stage& stage = stages[k];
        int option = path[k];
        int g = (option >> 3) & 7, started = option >> 15, c3 = (option >> 12) & 7;
        int s = stage.suit;
        auto& runs = open_runs[s];
        if (!g && !started && runs.empty() && (s != 3 || to_sets.empty())) continue;  // nothing changes
        int card = stage.card;
        std::vector<std::vector<int>> going;
        if (!runs.empty()) {
            std::vector<std::vector<int>> lng;
            for (auto& r : runs)
                if (r.size() < 3) going.push_back(std::move(r));
                else lng.push_back(std::move(r));
            for (int j = 0; j < static_cast<int>(lng.size()); ++j)
                if (j >= c3) melds.push_back(run_order(std::move(lng[j]), ace));  // long[c3:] stop here
            for (int j = 0; j < c3 && j < static_cast<int>(lng.size()); ++j) going.push_back(std::move(lng[j]));
        }
        for (int j = 0; j < started; ++j) going.emplace_back();
        for (auto& r : going) r.push_back(card);
        used[card] += static_cast<int>(going.size()) + g;
        runs = std::move(going);
        if (g) {
            to_sets.insert(to_sets.end(), g, card);
            copies = std::max(copies, g);
        }
        if (s == 3 && !to_sets.empty()) {
            std::vector<std::vector<int>> groups(copies);
            std::sort(to_sets.begin(), to_sets.end());
            for (std::size_t j = 0; j < to_sets.size(); ++j) groups[j % copies].push_back(to_sets[j]);
            for (auto& group : groups) melds.push_back(std::move(group));
            to_sets.clear();
            copies = 0;
        }
    }
    for (auto& runs : open_runs)
        for (auto& r : runs) melds.push_back(run_order(std::move(r), ace));
}

// The entry point for natural_play: natural._program(tc, bc, ace, budget, target), that is
// _stages, then _Program.best, then _natural_melds, in one call (plain ints across the boundary).
// Returns (status, melds, used, work): status 1 found, 0 none reaches target, -1 out of budget.
std::tuple<int, std::vector<std::vector<int>>, std::vector<int>, std::int64_t> natural_program(
    const std::vector<int>& tc, const std::vector<int>& bc, int ace, std::int64_t budget, int target) {
    if (tc.size() != 52 || bc.size() != 52) throw std::invalid_argument("natural_program: 52 counts each");
    if (ace < kLowAce || ace > kBothAces) throw std::invalid_argument("natural_program: ace is 0, 1 or 2");
    check_target(target);
    for (int i = 0; i < 52; ++i)
        if (tc[i] < 0 || bc[i] < 0 || tc[i] + bc[i] > kMaxCopies)
            throw std::invalid_argument("natural_program: copies out of range (card " + std::to_string(i) + ")");
    std::vector<Stage> stages = build_stages(tc, bc, ace);
    Program program(stages, budget);
    int value = 0;
    std::vector<int> path;
    std::vector<std::vector<int>> melds;
    std::vector<int> used;
    try {
        if (!program.best(target, value, path)) return {0, melds, used, program.work()};
    } catch (const OutOfBudget&) {
        return {-1, melds, used, program.work()};
    }
    natural_melds(stages, path, ace, melds, used);
    return {1, melds, used, program.work()};
}

// ================================================================================================
// ---- the plain question: plain.py's descend (issue 35, the plain best play on the core) -------
// plain._descend(tc, bc, ace, budget, beams, exact), step for step: first the program asked for
// every hand card of the bound with each cap of ``beams`` in turn (a layer keeps at most that many
// states; a path found plays the whole bound, so it is optimal), then, if ``exact``, the program
// with no cap asked for the bound, one card fewer, and so on down to one: the first target reached
// is the optimum. Every try's work counts against the one budget. Returns (status, melds, used,
// work): 1 found, 0 no play (only when exact), -1 past the budget or (not exact) no beam found one.
std::tuple<int, std::vector<std::vector<int>>, std::vector<int>, std::int64_t> natural_most(
    const std::vector<int>& tc, const std::vector<int>& bc, int ace, std::int64_t budget,
    const std::vector<std::int64_t>& beams, bool exact) {
    if (tc.size() != 52 || bc.size() != 52) throw std::invalid_argument("natural_most: 52 counts each");
    if (ace < kLowAce || ace > kBothAces) throw std::invalid_argument("natural_most: ace is 0, 1 or 2");
    int total = 0;
    for (int i = 0; i < 52; ++i) {
        if (tc[i] < 0 || bc[i] < 0 || tc[i] + bc[i] > kMaxCopies)
            throw std::invalid_argument("natural_most: copies out of range (card " + std::to_string(i) + ")");
        total += bc[i];
    }
    for (std::int64_t cap : beams)
        if (cap < 1) throw std::invalid_argument("natural_most: a beam keeps at least one state");
    if (total == 0) return {0, {}, {}, 0};
    const std::vector<Stage> stages = build_stages(tc, bc, ace);
    std::int64_t work = 0;
    std::vector<std::vector<int>> melds;
    std::vector<int> used;
    // One try: 1 found (melds and used filled), 0 not, -1 past what is left of the budget.
    auto attempt = [&](int target, std::size_t cap) {
        Program program(stages, budget - work, cap);
        int value = 0;
        std::vector<int> path;
        int status = 0;
        try {
            status = program.best(target, value, path) ? 1 : 0;
        } catch (const OutOfBudget&) {
            status = -1;
        }
        work += program.work();
        if (status == 1) natural_melds(stages, path, ace, melds, used);
        return status;
    };
    for (std::int64_t cap : beams) {
        int status = attempt(total, static_cast<std::size_t>(cap));
        if (status) return {status, melds, used, work};
    }
    if (!exact) return {-1, melds, used, work};
    for (int target = total; target > 0; --target) {
        int status = attempt(target, kNoCap);
        if (status) return {status, melds, used, work};
    }
    return {0, melds, used, work};
}

}  // namespace

// The engine's part (solver/native/src/manipulation_engine.cpp): its way to the program, and its
// functions in this module.
std::tuple<int, std::vector<std::vector<int>>, std::vector<int>, std::int64_t> engine_natural_program(
    const std::vector<int>& tc, const std::vector<int>& bc, int ace, std::int64_t budget, int target) {
    return natural_program(tc, bc, ace, budget, target);
}
void register_engine(py::module_& m);

PYBIND11_MODULE(_manipulation, m) {
    m.doc() = "Manipulation Shanghai's compiled core (see solver/native/src/manipulation.cpp).";
    register_engine(m);
    m.def("natural_best", &natural_best, py::arg("stages"), py::arg("budget"), py::arg("target"),
          "natural._Program(stages, budget).best(target): (1, value, packed path, work), (0, 0, [], work) "
          "for none, (-1, 0, [], work) past the budget.");
    m.def("natural_most", &natural_most, py::arg("tc"), py::arg("bc"), py::arg("ace"), py::arg("budget"),
          py::arg("beams"), py::arg("exact"),
          "plain._descend(tc, bc, ace, budget, beams, exact): (1, melds, used, work), (0, [], [], work) for no "
          "play, (-1, [], [], work) past the budget (or, not exact, no beam found the whole bound).");
    m.def("natural_program", &natural_program, py::arg("tc"), py::arg("bc"), py::arg("ace"), py::arg("budget"),
          py::arg("target"),
          "natural._program(tc, bc, ace, budget, target): (1, melds, used, work), (0, [], [], work) for none, "
          "(-1, [], [], work) past the budget; ace is 0 low, 1 high, 2 both.");
}
