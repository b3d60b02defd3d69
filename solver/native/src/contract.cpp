// Contract Shanghai's compiled core: the exact distance search of solver/contract/search.py.
//
// Every function here mirrors one Python function line for line (named in its comment), with the
// same order of enumeration and the same tie-breaks, so that the native and the pure paths give the
// same answers, the same choice among equal answers included. Only plain ints and lists cross the
// boundary; the Python side (solver/contract/native.py) validates them first, and every index the
// input decides is bounds-checked here too (a bad one raises std::invalid_argument, which pybind11
// turns into ValueError and the Python side into the library's typed error). No global mutable state.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace {

constexpr int kNatural = 52;  // natural card indexes 0..51 (suit * 13 + rank - 1)
// The most copies of a card, and of wilds, a count may say (far above any deck: a huge count would make
// the split enumeration run for ever, and overflow the int sums; found by the hostile fuzz run).
constexpr int kMaxCount = 64;
// The most requirements of a contract, or shapes of a combination (solver.contract.native.MAX_MELDS):
// the split enumeration of dozens runs for ever (found by the hostile fuzz run).
constexpr size_t kMaxMelds = 8;

// ------------------------------------------------------------------ shapes (solver/contract/shapes.py)

// One meld a requirement may take (shapes.Shape): a set of `rank` or a run window of `suit`.
struct Shape {
    bool run = false;
    int size = 0;
    int wmax = 0;
    int rank = 0;
    int suit = -1;
    std::vector<int> cards;  // natural card indexes: a run's in window order, a set's four suits
    uint64_t cmask = 0;      // bit i for each index in cards
    uint32_t pmask = 0;      // a run's window positions (bit p)
    uint32_t ends = 0;       // the end positions of a run longer than its minimum
};

// ranks.wild_cap: the most wilds a meld of `size` cards may hold under the wild limit.
int wild_cap(const std::string& limit, int size) {
    if (limit == "fewer") return (size - 1) / 2;
    if (limit == "half") return size / 2;
    return size - 1;
}

// shapes.shapes_for: every shape a requirement of minimum length m needs, in the Python order.
std::vector<Shape> shapes_for(bool run, int m, const std::string& ace, const std::string& limit) {
    std::vector<Shape> out;
    if (!run) {  // shapes._set_shapes
        for (int rank = 1; rank <= 13; ++rank) {
            Shape sh;
            sh.size = m;
            sh.wmax = wild_cap(limit, m);
            sh.rank = rank;
            for (int s = 0; s < 4; ++s) {
                sh.cards.push_back(s * 13 + rank - 1);
                sh.cmask |= uint64_t{1} << (s * 13 + rank - 1);
            }
            out.push_back(std::move(sh));
        }
        return out;
    }
    const int lo = ace == "high" ? 2 : 1;
    const int hi = ace == "low" ? 13 : 14;
    const int parity = limit == "fewer" ? 1 : (limit == "half" ? 0 : -1);
    for (int suit = 0; suit < 4; ++suit) {
        for (int length = m; length < 14; ++length) {
            if (length > m && (parity < 0 || length % 2 != parity)) continue;
            for (int start = lo; start < hi - length + 2; ++start) {
                const int last = start + length - 1;
                if (start == 1 && last == 14) continue;
                Shape sh;
                sh.run = true;
                sh.size = length;
                sh.wmax = wild_cap(limit, length);
                sh.suit = suit;
                for (int p = start; p <= last; ++p) {
                    const int i = suit * 13 + (p == 14 ? 0 : p - 1);  // ranks.card_index
                    sh.cards.push_back(i);
                    sh.cmask |= uint64_t{1} << i;
                    sh.pmask |= uint32_t{1} << p;
                }
                sh.ends = length > m ? ((uint32_t{1} << start) | (uint32_t{1} << last)) : 0;
                out.push_back(std::move(sh));
            }
        }
    }
    return out;
}

// The shapes_for tables of every (run, length, ace, wild limit), built once on first use (a C++11
// function-local static: its initialisation is thread-safe) and never changed after: read-only data.
const std::vector<Shape>& shape_table(bool run, int m, const std::string& ace, const std::string& limit) {
    static const std::vector<std::vector<Shape>> tables = [] {
        std::vector<std::vector<Shape>> out;
        for (const char* a : {"low", "high", "both"})
            for (const char* l : {"fewer", "half", "any"})
                for (int r = 0; r < 2; ++r)
                    for (int len = 1; len <= 13; ++len) out.push_back(shapes_for(r == 1, len, a, l));
        return out;
    }();
    const int a = ace == "low" ? 0 : (ace == "high" ? 1 : 2);
    const int l = limit == "fewer" ? 0 : (limit == "half" ? 1 : 2);
    return tables[((a * 3 + l) * 2 + (run ? 1 : 0)) * 13 + (m - 1)];
}

// shapes.suit_mask: bit p for each rank position of `suit` with a card in counts (the ace at 1 and 14).
uint32_t suit_mask(const std::vector<int>& counts, int suit) {
    uint32_t mask = 0;
    for (int r = 0; r < 13; ++r)
        if (counts[suit * 13 + r]) mask |= uint32_t{1} << (r + 1);
    if (mask & 2) mask |= uint32_t{1} << 14;
    return mask;
}

// The hand and the pool (shapes.Counts, its numbers only): natural counts, wilds, suit masks.
struct Counts {
    std::vector<int> hn, pn;
    int hw = 0, pw = 0;
    std::array<uint32_t, 4> hmask{}, pmask{};
};

Counts make_counts(const std::vector<int>& hn, const std::vector<int>& pn, int hw, int pw) {
    if (hn.size() != kNatural || pn.size() != kNatural) throw std::invalid_argument("counts must have 52 entries");
    if (hw < 0 || pw < 0 || hw > kMaxCount || pw > kMaxCount)
        throw std::invalid_argument("wild counts must be 0..64");
    for (int i = 0; i < kNatural; ++i)
        if (hn[i] < 0 || pn[i] < 0 || hn[i] > kMaxCount || pn[i] > kMaxCount)
            throw std::invalid_argument("card counts must be 0..64");
    Counts c;
    c.hn = hn;
    c.pn = pn;
    c.hw = hw;
    c.pw = pw;
    for (int s = 0; s < 4; ++s) {
        c.hmask[s] = suit_mask(hn, s);
        c.pmask[s] = suit_mask(pn, s);
    }
    return c;
}

// A shape priced on its own (shapes.Cand): open slots s, those a natural to come can fill q, need.
struct Cand {
    int shape = 0;  // index into its requirement's shapes_for table
    int s = 0, q = 0, need = 0;
};

// shapes.price: the shape on its own, or nothing when it cannot be made even with every card to come.
std::optional<Cand> price(const Shape& sh, int index, const Counts& c) {
    int h = 0, q = 0;
    if (sh.run) {
        const uint32_t hm = c.hmask[sh.suit], pm = c.pmask[sh.suit];
        if (sh.ends && ((hm | pm) & sh.ends) != sh.ends) return std::nullopt;
        h = __builtin_popcount(hm & sh.pmask);
        q = __builtin_popcount(pm & sh.pmask & ~hm);
    } else {
        int hr = 0, pr = 0;
        for (int i : sh.cards) {
            hr += c.hn[i];
            pr += c.pn[i];
        }
        h = std::min(sh.size, hr);
        q = std::min(sh.size - h, pr);
    }
    const int s = sh.size - h;
    const int need = s > sh.wmax ? s - sh.wmax : 0;
    if (need > q || s - q > c.hw + c.pw) return std::nullopt;
    return Cand{index, s, q, need};
}

// ------------------------------------------------------------------ pricing a combination (shapes.py)

// shapes._cost: fewest extra cards for melds with h hand naturals and q fillable slots each (-1: none).
int cost_of(const std::vector<int>& sizes, const std::vector<int>& wmaxes, const std::vector<int>& h,
            const std::vector<int>& q, int hw, int pw) {
    int total_need = 0, total_s = 0, unfillable = 0;
    for (size_t j = 0; j < sizes.size(); ++j) {
        const int s = sizes[j] - h[j];
        const int need = s > wmaxes[j] ? s - wmaxes[j] : 0;
        if (need > q[j]) return -1;
        total_need += need;
        total_s += s;
        unfillable += s - q[j];
    }
    if (unfillable > hw + pw) return -1;
    return std::max(total_need, total_s - hw);
}

// shapes.Split: per meld, the hand naturals taken and the open slots naturals to come may fill
// (runs: card indexes; sets: a count, kept in `count`).
struct Part {
    std::vector<int> cards;
    int count = 0;
};
struct Split {
    std::vector<Part> hand, pool;
};

// itertools.combinations(items, r), in its order, each as a vector.
void combinations(const std::vector<int>& items, int r, std::vector<std::vector<int>>& out) {
    const int n = static_cast<int>(items.size());
    if (r > n) return;
    std::vector<int> idx(r);
    for (int i = 0; i < r; ++i) idx[i] = i;
    while (true) {
        std::vector<int> pick;
        pick.reserve(r);
        for (int i : idx) pick.push_back(items[i]);
        out.push_back(std::move(pick));
        int i = r - 1;
        while (i >= 0 && idx[i] == i + n - r) --i;
        if (i < 0) return;
        ++idx[i];
        for (int j = i + 1; j < r; ++j) idx[j] = idx[j - 1] + 1;
    }
}

// shapes._choices: which runs among `takers` get one of `copies` copies of a card.
std::vector<std::vector<int>> choices(int copies, const std::vector<int>& takers, bool flexible) {
    std::vector<std::vector<int>> out;
    const int k = static_cast<int>(takers.size());
    if (!flexible) {
        if (copies >= k) {
            out.push_back(takers);
            return out;
        }
        combinations(takers, copies, out);
        return out;
    }
    for (int t = 0; t <= std::min(copies, k); ++t) combinations(takers, t, out);
    return out;
}

// shapes._set_splits: every way to give min(total, sum(caps)) copies to sets with room caps.
void set_splits_rec(const std::vector<int>& caps, size_t i, int left, std::vector<int>& cur,
                    std::vector<std::vector<int>>& out) {
    if (i == caps.size() - 1) {
        if (left <= caps[i]) {
            cur.push_back(left);
            out.push_back(cur);
            cur.pop_back();
        }
        return;
    }
    for (int k = std::min(left, caps[i]); k >= 0; --k) {
        cur.push_back(k);
        set_splits_rec(caps, i + 1, left - k, cur, out);
        cur.pop_back();
    }
}

std::vector<std::vector<int>> set_splits(int total, const std::vector<int>& caps) {
    int sum = 0;
    for (int x : caps) sum += x;
    std::vector<std::vector<int>> out;
    std::vector<int> cur;
    set_splits_rec(caps, 0, std::min(total, sum), cur, out);
    return out;
}

// A list of keys in insertion order with a list each (the Python dicts cover / set_rank / open_cover).
struct OrderedLists {
    std::vector<int> keys;
    std::vector<std::vector<int>> lists;
    std::vector<int> where;  // key -> slot + 1 (0: absent)
    explicit OrderedLists(int n_keys) : where(n_keys, 0) {}
    void add(int key, int value) {
        if (!where[key]) {
            keys.push_back(key);
            lists.emplace_back();
            where[key] = static_cast<int>(keys.size());
        }
        lists[where[key] - 1].push_back(value);
    }
    const std::vector<int>* get(int key) const { return where[key] ? &lists[where[key] - 1] : nullptr; }
};

// shapes._Pricer: every split of a combination's shared copies, priced; best() as price_combo.
class Pricer {
   public:
    Pricer(const std::vector<const Shape*>& shapes, const std::vector<int>& hn, const std::vector<int>& pn, int hw,
           int pw)
        : shapes_(shapes), hn_(hn), pn_(pn), hw_(hw), pw_(pw), set_rank_(14), cover_(kNatural) {
        const int n = static_cast<int>(shapes.size());
        for (int j = 0; j < n; ++j)
            if (shapes[j]->run) runs_.push_back(j);
        for (int j = 0; j < n; ++j)
            if (!shapes[j]->run) set_rank_.add(shapes[j]->rank, j);
        for (int j : runs_)
            for (int card : shapes[j]->cards) cover_.add(card, j);
        for (const Shape* sh : shapes) {
            sizes_.push_back(sh->size);
            wmaxes_.push_back(sh->wmax);
        }
        no_pool_ = std::none_of(pn.begin(), pn.end(), [](int x) { return x != 0; });
    }

    // _Pricer.best: the cheapest split (the first found of that cost); false when none completes it.
    bool best(int& cost_out, Split* split_out) {
        found_ = false;
        split_ = split_out;
        hand_picks();
        cost_out = best_cost_;
        return found_;
    }

   private:
    using Got = std::vector<std::vector<int>>;  // per meld j (runs only), the cards it takes

    // _Pricer.contested: ranks whose sets compete with runs for `counts` copies (bit per rank).
    uint32_t contested(const std::vector<int>& counts, const OrderedLists& open_cover,
                       const std::vector<int>& room) const {
        uint32_t out = 0;
        for (size_t g = 0; g < set_rank_.keys.size(); ++g) {
            const int rank = set_rank_.keys[g];
            const Shape* sh = shapes_[set_rank_.lists[g][0]];
            int total = 0, runs_want = 0;
            for (int i : sh->cards) {
                total += counts[i];
                const std::vector<int>* cov = open_cover.get(i);
                runs_want += std::min(counts[i], cov ? static_cast<int>(cov->size()) : 0);
            }
            if (total - runs_want < room[g]) out |= uint32_t{1} << rank;
        }
        return out;
    }

    // _Pricer._set_options: per set rank, every split of its copies left among its sets.
    std::vector<std::vector<std::vector<int>>> set_options(const std::vector<int>& counts,
                                                           const std::vector<int>& taken,
                                                           const std::vector<int>& room) const {
        std::vector<std::vector<std::vector<int>>> out;
        for (size_t g = 0; g < set_rank_.keys.size(); ++g) {
            const std::vector<int>& group = set_rank_.lists[g];
            int total = 0;
            for (int i : shapes_[group[0]]->cards) total += counts[i] - taken[i];
            std::vector<int> caps;
            for (int j : group) caps.push_back(room[j]);
            out.push_back(set_splits(total, caps));
        }
        return out;
    }

    // _Pricer._per_meld with one choice of set splits: each meld's count (runs: cards taken).
    std::vector<int> per_meld(const Got& got, const std::vector<std::vector<std::vector<int>>>& options,
                              const std::vector<int>& choice) const {
        std::vector<int> out(shapes_.size(), 0);
        for (int j : runs_) out[j] = static_cast<int>(got[j].size());
        for (size_t g = 0; g < options.size(); ++g) {
            const std::vector<int>& group = set_rank_.lists[g];
            const std::vector<int>& split = options[g][choice[g]];
            for (size_t t = 0; t < group.size(); ++t) out[group[t]] = split[t];
        }
        return out;
    }

    // itertools.product over option lists (the last varies fastest); visit returns true to stop.
    template <class Visit>
    static bool product(const std::vector<size_t>& sizes, std::vector<int>& choice, size_t at, Visit&& visit) {
        if (at == sizes.size()) return visit();
        for (size_t t = 0; t < sizes[at]; ++t) {
            choice[at] = static_cast<int>(t);
            if (product(sizes, choice, at + 1, visit)) return true;
        }
        return false;
    }

    // _Pricer._run_picks: every way the runs take the copies of `counts` they cover.
    template <class Visit>
    bool run_picks(const std::vector<int>& counts, const OrderedLists& cover, uint32_t flex, Visit&& visit) const {
        std::vector<int> cards;
        std::vector<std::vector<std::vector<int>>> options;
        for (size_t t = 0; t < cover.keys.size(); ++t) {
            const int c = cover.keys[t];
            if (!counts[c]) continue;
            cards.push_back(c);
            options.push_back(choices(counts[c], cover.lists[t], (flex >> (c % 13 + 1)) & 1));
        }
        std::vector<size_t> sizes;
        for (const auto& o : options) sizes.push_back(o.size());
        std::vector<int> choice(options.size(), 0);
        return product(sizes, choice, 0, [&]() {
            Got got(shapes_.size());
            std::vector<int> taken(kNatural, 0);
            for (size_t t = 0; t < cards.size(); ++t) {
                const std::vector<int>& js = options[t][choice[t]];
                for (int j : js) got[j].push_back(cards[t]);
                taken[cards[t]] = static_cast<int>(js.size());
            }
            return visit(got, taken);
        });
    }

    // _Pricer.hand_picks, each followed by its pool_picks and pricing (_Pricer.best's loops).
    void hand_picks() {
        std::vector<int> room;
        for (const auto& js : set_rank_.lists) {
            int r = 0;
            for (int j : js) r += sizes_[j];
            room.push_back(r);
        }
        const uint32_t flex = contested(hn_, cover_, room);
        run_picks(hn_, cover_, flex, [&](const Got& got, const std::vector<int>& taken) {
            const auto options = set_options(hn_, taken, sizes_);
            std::vector<size_t> sizes;
            for (const auto& o : options) sizes.push_back(o.size());
            std::vector<int> choice(options.size(), 0);
            return product(sizes, choice, 0, [&]() { return pool_picks(got, per_meld(got, options, choice)); });
        });
    }

    // _Pricer.pool_picks for one hand split (got, h), each priced; true when a free split is found.
    bool pool_picks(const Got& got, const std::vector<int>& h) {
        if (no_pool_) return consider(got, h, Got(shapes_.size()), std::vector<int>(shapes_.size(), 0));
        OrderedLists open_cover(kNatural);
        for (int j : runs_) {
            const std::vector<int>& mine = got[j];
            for (int card : shapes_[j]->cards)
                if (std::find(mine.begin(), mine.end(), card) == mine.end()) open_cover.add(card, j);
        }
        std::vector<int> room;
        for (const auto& js : set_rank_.lists) {
            int r = 0;
            for (int j : js) r += sizes_[j] - h[j];
            room.push_back(r);
        }
        const uint32_t flex = contested(pn_, open_cover, room);
        std::vector<int> set_room;
        for (size_t j = 0; j < sizes_.size(); ++j) set_room.push_back(sizes_[j] - h[j]);
        return run_picks(pn_, open_cover, flex, [&](const Got& fill, const std::vector<int>& ptaken) {
            const auto options = set_options(pn_, ptaken, set_room);
            std::vector<size_t> sizes;
            for (const auto& o : options) sizes.push_back(o.size());
            std::vector<int> choice(options.size(), 0);
            return product(sizes, choice, 0,
                           [&]() { return consider(got, h, fill, per_meld(fill, options, choice)); });
        });
    }

    // The body of _Pricer.best's inner loop: keep a cheaper split; true (stop) at cost 0.
    bool consider(const Got& got, const std::vector<int>& h, const Got& fill, const std::vector<int>& q) {
        const int cost = cost_of(sizes_, wmaxes_, h, q, hw_, pw_);
        if (cost < 0 || (found_ && cost >= best_cost_)) return false;
        found_ = true;
        best_cost_ = cost;
        if (split_ != nullptr) {
            const size_t n = shapes_.size();
            split_->hand.assign(n, Part{});
            split_->pool.assign(n, Part{});
            for (size_t j = 0; j < n; ++j) {
                if (shapes_[j]->run) {
                    split_->hand[j].cards = got[j];
                    split_->pool[j].cards = fill[j];
                } else {
                    split_->hand[j].count = h[j];
                    split_->pool[j].count = q[j];
                }
            }
        }
        return cost == 0;
    }

    const std::vector<const Shape*>& shapes_;
    const std::vector<int>& hn_;
    const std::vector<int>& pn_;
    int hw_, pw_;
    std::vector<int> runs_;
    OrderedLists set_rank_;
    OrderedLists cover_;
    std::vector<int> sizes_, wmaxes_;
    bool no_pool_ = false;
    bool found_ = false;
    int best_cost_ = 0;
    Split* split_ = nullptr;
};

// shapes.combo_cost: the exact fewest extra cards of a combination (-1: impossible), fast when the
// greedy split (shapes._Greedy: runs first take the copies they find, then sets) meets the bound.
int combo_cost(const std::vector<const Shape*>& shapes, const std::vector<int>& hn, const std::vector<int>& pn,
               int hw, int pw) {
    std::vector<int> hl(hn), pl(pn);
    std::vector<int> sizes, wmaxes, hs, qs;
    int need0 = 0;
    auto add = [&](const Shape& sh, int h0, int hj, int qj) {  // _Greedy._add
        const int s0 = sh.size - h0;
        need0 += s0 > sh.wmax ? s0 - sh.wmax : 0;
        sizes.push_back(sh.size);
        wmaxes.push_back(sh.wmax);
        hs.push_back(hj);
        qs.push_back(qj);
    };
    for (const Shape* sh : shapes) {  // _Greedy.run
        if (!sh->run) continue;
        int hj = 0, qj = 0, h0 = 0;
        for (int i : sh->cards) {
            if (hn[i]) ++h0;
            if (hl[i]) {
                --hl[i];
                ++hj;
            } else if (pl[i]) {
                --pl[i];
                ++qj;
            }
        }
        add(*sh, h0, hj, qj);
    }
    auto take = [&](std::vector<int>& left, const Shape& sh, int wanted) {  // _Greedy._take
        for (int i : sh.cards) {
            const int k = std::min(left[i], wanted);
            left[i] -= k;
            wanted -= k;
        }
    };
    for (const Shape* sh : shapes) {  // _Greedy.set_
        if (sh->run) continue;
        int sum_hn = 0, sum_hl = 0, sum_pl = 0;
        for (int i : sh->cards) {
            sum_hn += hn[i];
            sum_hl += hl[i];
        }
        const int h0 = std::min(sh->size, sum_hn);
        const int hj = std::min(sh->size, sum_hl);
        take(hl, *sh, hj);
        for (int i : sh->cards) sum_pl += pl[i];
        const int qj = std::min(sh->size - hj, sum_pl);
        take(pl, *sh, qj);
        add(*sh, h0, hj, qj);
    }
    int sum_sizes = 0, sum_hs = 0, sum_w = 0;
    for (size_t j = 0; j < sizes.size(); ++j) {
        sum_sizes += sizes[j];
        sum_hs += hs[j];
        sum_w += wmaxes[j];
    }
    const int s_lb = sum_sizes - sum_hs;
    const int bound = std::max({need0, s_lb - sum_w, s_lb - hw});
    const int greedy = cost_of(sizes, wmaxes, hs, qs, hw, pw);
    if (greedy >= 0 && greedy <= bound) return greedy;
    int cost = 0;
    Pricer pricer(shapes, hn, pn, hw, pw);
    return pricer.best(cost, nullptr) ? cost : -1;
}

// ------------------------------------------------------------------ the walk (search._Walk)

// search.Path: the running totals of a partial combination.
struct Path {
    int need = 0, opened = 0, unfilled = 0, wmax = 0;
    uint32_t ranks = 0;
    uint64_t bits = 0, run_bits = 0;
    bool clash = false;
};

struct StopWalk {};  // search.StopWalk: ends a walk early

// One requirement's candidates (search.DistanceSearch.cands[k]) with its shape table.
struct Requirement {
    bool run = false;
    int m = 0;
    const std::vector<Shape>* table = nullptr;
    std::vector<Cand> cands;
};

// The combinations reached by a walk go to a Visitor (search.Visit).
struct Visitor {
    virtual ~Visitor() = default;
    virtual void leaf(const std::vector<const Cand*>& chosen, const Path& path) = 0;
    virtual bool skip(uint64_t /*bits*/) { return false; }
};

class Search;

// search._Walk: one walk over the combinations whose lower bound is at most *limit.
class Walk {
   public:
    Walk(Search& search, int* limit, Visitor& visitor);
    void run() {
        try {
            node(0, 0, Path{});
        } catch (const StopWalk&) {
        }
    }

   private:
    void tick(uint32_t mask);
    std::pair<int, int> run_overlap(const Shape& sh, uint64_t run_bits) const;
    std::pair<int, int> overlap(const Cand& x, const Shape& sh, uint64_t run_bits) const;
    bool child(int k, const Cand& x, const Path& path, Path& out) const;
    void node(int k, int start, const Path& path);
    void leaf(const Cand& x, const Path& path);
    void descend(int k, int idx, const Cand& x, const Path& path);

    Search& search_;
    int* limit_;
    Visitor& visitor_;
    std::vector<int> rest_s_, rest_need_, rest_u_;
    int last_ = 0;
    std::vector<const Cand*> chosen_;
    std::vector<int> cover_ = std::vector<int>(kNatural, 0);
    std::array<int, 14> run_take_{}, set_room_{}, copies_{};
    uint64_t set_bits_ = 0;
    uint64_t leaves_ = 0;
};

// search.DistanceSearch: the candidates, find() and each_best() (the Python class keeps decode/outs).
class Search {
   public:
    Search(const std::vector<int>& hn, const std::vector<int>& pn, int hw, int pw,
           const std::vector<std::pair<bool, int>>& reqs, const std::vector<bool>& same, const std::string& ace,
           const std::string& limit, bool distinct, bool hand_only, py::object expired)
        : c_(make_counts(hn, pn, hw, pw)), same_(same), distinct_(distinct), hand_only_(hand_only),
          expired_(std::move(expired)) {
        if (ace != "low" && ace != "high" && ace != "both") throw std::invalid_argument("ace must be low, high or both");
        if (limit != "fewer" && limit != "half" && limit != "any")
            throw std::invalid_argument("wild_limit must be fewer, half or any");
        if (reqs.empty() || reqs.size() > kMaxMelds || same.size() != reqs.size())
            throw std::invalid_argument("bad requirement list (1 to 8 requirements)");
        // search.DistanceSearch._priced / _price: one table per (run, length), candidates cheapest first
        for (const auto& [run, m] : reqs) {
            if (m < 1 || m > 13) throw std::invalid_argument("a requirement's length must be 1..13");
            Requirement req;
            req.run = run;
            req.m = m;
            req.table = &shape_table(run, m, ace, limit);
            size_t t = 0;  // an earlier requirement of the same kind and length: the same candidates
            while (t < reqs_.size() && !(reqs_[t].run == run && reqs_[t].m == m)) ++t;
            if (t < reqs_.size()) {
                req.cands = reqs_[t].cands;
            } else {
                const auto& table = *req.table;
                for (size_t i = 0; i < table.size(); ++i)
                    if (auto cand = price(table[i], static_cast<int>(i), c_)) req.cands.push_back(*cand);
                // sorted by (s, need), stably (price_hand_only's buckets give the same order)
                std::stable_sort(req.cands.begin(), req.cands.end(), [](const Cand& a, const Cand& b) {
                    return a.s != b.s ? a.s < b.s : a.need < b.need;
                });
            }
            reqs_.push_back(std::move(req));
        }
        for (int i = 0; i < kNatural; ++i) {
            if (c_.hn[i]) hand_bits_ |= uint64_t{1} << i;
            if (c_.pn[i]) pool_bits_ |= uint64_t{1} << i;
        }
    }

    // The candidates of each requirement, in walk order: (shape index, s, q, need) each.
    std::vector<std::vector<std::tuple<int, int, int, int>>> candidates() const {
        std::vector<std::vector<std::tuple<int, int, int, int>>> out;
        for (const auto& req : reqs_) {
            out.emplace_back();
            for (const Cand& x : req.cands) out.back().emplace_back(x.shape, x.s, x.q, x.need);
        }
        return out;
    }

    // DistanceSearch._cost: a leaf's exact cost (-1: impossible).
    int leaf_cost(const std::vector<const Cand*>& combo, const Path& path) const {
        if (!path.clash) return std::max(path.need, path.opened - c_.hw);
        return combo_cost(shapes_of(combo), c_.hn, c_.pn, c_.hw, c_.pw);
    }

    std::vector<const Shape*> shapes_of(const std::vector<const Cand*>& combo) const {
        std::vector<const Shape*> out;
        for (size_t k = 0; k < combo.size(); ++k) out.push_back(&(*reqs_[k].table)[combo[k]->shape]);
        return out;
    }

    // DistanceSearch.find: the fewest extra cards and the first best combination (indexes into each
    // requirement's candidates), None when impossible; with zero, only a combination needing no card.
    py::object find(bool zero) {
        find_best(zero);
        return result();
    }

    // find() without the Python result: sets best_ (-1: none) and first_cands_.
    void find_best(bool zero) {
        best_ = -1;
        first_ = py::none();
        first_cands_.clear();
        for (const auto& req : reqs_)
            if (req.cands.empty()) return;
        int floor = 0;
        if (hand_only_) {
            int sum = 0;
            for (const auto& req : reqs_) sum += req.cands[0].s;
            floor = std::max(0, sum - c_.hw);
        } else {
            int sum_need = 0, sum_s = 0;
            for (const auto& req : reqs_) {
                int mn = 1 << 30, ms = 1 << 30;
                for (const Cand& x : req.cands) {
                    mn = std::min(mn, x.need);
                    ms = std::min(ms, x.s);
                }
                sum_need += mn;
                sum_s += ms;
            }
            floor = std::max(sum_need, sum_s - c_.hw);
        }
        if (zero && floor > 0) return;
        int limit = zero ? 0 : (1 << 30);
        struct Finder : Visitor {
            Search& s;
            int& limit;
            int floor;
            bool zero;
            Finder(Search& s_, int& l, int f, bool z) : s(s_), limit(l), floor(f), zero(z) {}
            void leaf(const std::vector<const Cand*>& chosen, const Path& path) override {
                const int cost = s.leaf_cost(chosen, path);
                if (cost >= 0 && (s.best_ < 0 || cost < s.best_) && !(zero && cost)) {
                    s.best_ = cost;
                    s.first_cands_.clear();
                    for (const Cand* x : chosen) s.first_cands_.push_back(*x);
                    limit = cost - 1;
                    if (cost <= floor) throw StopWalk{};
                }
            }
        } finder(*this, limit, floor, zero);
        Walk(*this, &limit, finder).run();
    }

    // DistanceSearch.each_best: call visit(indexes, path) on every best combination (after find);
    // skip(bits) may rule a combination out first. A StopWalk raised by visit ends the walk quietly.
    bool each_best(int best, py::object visit, py::object skip, py::object stop_walk) {
        for (const auto& req : reqs_)
            if (req.cands.empty()) return complete_;
        int limit = best;
        struct Caller : Visitor {
            Search& s;
            int best;
            py::object visit, skip_fn, stop_walk;
            Caller(Search& s_, int b, py::object v, py::object k, py::object sw)
                : s(s_), best(b), visit(std::move(v)), skip_fn(std::move(k)), stop_walk(std::move(sw)) {}
            void leaf(const std::vector<const Cand*>& chosen, const Path& path) override {
                if (s.leaf_cost(chosen, path) != best) return;
                try {
                    visit(s.combo_tuple(chosen), py::make_tuple(path.need, path.opened, path.unfilled, path.wmax, path.ranks,
                                              py::int_(path.bits), py::int_(path.run_bits), path.clash));
                } catch (py::error_already_set& e) {
                    if (e.matches(stop_walk)) throw StopWalk{};
                    throw;
                }
            }
            bool skip(uint64_t bits) override {
                return !skip_fn.is_none() && static_cast<bool>(py::bool_(skip_fn(py::int_(bits))));
            }
        } caller(*this, best, std::move(visit), std::move(skip), std::move(stop_walk));
        Walk(*this, &limit, caller).run();
        return complete_;
    }

    bool complete() const { return complete_; }

    // DistanceSearch.price_moved: a combination's cost with one copy of `card` moved to the hand
    // (to_hand=1) or to the pool (-1); card -1 is a wild (-1 returned for None).
    int price_moved(const std::vector<const Shape*>& shapes, int card, int to_hand) const {
        if (card < 0) return combo_cost(shapes, c_.hn, c_.pn, c_.hw + to_hand, c_.pw - to_hand);
        std::vector<int> hn(c_.hn), pn(c_.pn);
        hn[card] += to_hand;
        pn[card] -= to_hand;
        return combo_cost(shapes, hn, pn, c_.hw, c_.pw);
    }

    // price_moved from Python: the combination as (requirement, shape index) pairs in walk order.
    py::object py_price_moved(const std::vector<std::pair<int, int>>& combo, int card, int to_hand) const {
        if (card < -1 || card >= kNatural || (to_hand != 1 && to_hand != -1))
            throw std::invalid_argument("price_moved: a natural card index or -1, and +1 or -1");
        if (combo.size() > reqs_.size()) throw std::invalid_argument("price_moved: one shape a requirement at most");
        std::vector<const Shape*> shapes;
        for (const auto& [k, t] : combo) {
            if (k < 0 || k >= static_cast<int>(reqs_.size()) || t < 0 || t >= static_cast<int>(reqs_[k].table->size()))
                throw std::invalid_argument("price_moved: no such shape");
            shapes.push_back(&(*reqs_[k].table)[t]);
        }
        const int cost = price_moved(shapes, card, to_hand);
        return cost < 0 ? py::object(py::none()) : py::object(py::int_(cost));
    }

    // search._Outs over every best combination (DistanceSearch.outs after find): the bits of the
    // naturals to come in some fewest completion, and whether a wild to come is one.
    std::pair<uint64_t, bool> outs(int best) {
        for (const auto& req : reqs_)
            if (req.cands.empty()) return {0, false};
        struct Outs : Visitor {
            Search& s;
            int best;
            uint64_t found = 0;
            bool wild = false;
            Outs(Search& s_, int b) : s(s_), best(b) {}
            bool settled() const { return wild || !s.c_.pw; }
            void leaf(const std::vector<const Cand*>& chosen, const Path& path) override {
                if (s.leaf_cost(chosen, path) != best) return;  // each_best's filter
                if (!path.clash) {
                    independent(chosen, path);
                } else {
                    const int closer = best - 1;
                    const auto shapes = s.shapes_of(chosen);
                    uint64_t todo = path.bits & s.pool_bits_ & ~found;
                    while (todo) {
                        const uint64_t low = todo & (~todo + 1);
                        todo ^= low;
                        if (s.price_moved(shapes, __builtin_ctzll(low), 1) == closer) found |= low;
                    }
                    if (!wild && s.c_.pw && s.price_moved(shapes, -1, 1) == closer) wild = true;
                }
                if (settled() && !(s.pool_bits_ & ~found)) throw StopWalk{};
            }
            // _Outs._independent: melds that share no card
            void independent(const std::vector<const Cand*>& chosen, const Path& path) {
                const bool grow = path.need < best;
                uint64_t got = found;
                for (size_t k = 0; k < chosen.size(); ++k) {
                    const Cand& x = *chosen[k];
                    if (!(grow || x.need)) continue;
                    const Shape& sh = (*s.reqs_[k].table)[x.shape];
                    if (sh.run)
                        got |= sh.cmask & s.pool_bits_ & ~s.hand_bits_;
                    else if (x.s)
                        got |= sh.cmask & s.pool_bits_;
                }
                found = got;
                if (path.opened - s.c_.hw > path.need) wild = true;
            }
            bool skip(uint64_t bits) override { return settled() && !(bits & s.pool_bits_ & ~found); }
        } outs(*this, best);
        int limit = best;
        Walk(*this, &limit, outs).run();
        return {outs.found, outs.wild};
    }

   private:
    friend class Walk;

    // A combination as Python sees it: (shape index, s, q, need) per requirement, in walk order.
    py::tuple combo_tuple(const std::vector<const Cand*>& chosen) const {
        py::tuple out(chosen.size());
        for (size_t k = 0; k < chosen.size(); ++k)
            out[k] = py::make_tuple(chosen[k]->shape, chosen[k]->s, chosen[k]->q, chosen[k]->need);
        return out;
    }

    // (best or None, the first best combination or None, complete)
    py::object result() const {
        if (best_ < 0) return py::make_tuple(py::none(), py::none(), complete_);
        std::vector<const Cand*> chosen;
        for (const Cand& x : first_cands_) chosen.push_back(&x);
        return py::make_tuple(best_, combo_tuple(chosen), complete_);
    }

   public:
    int best() const { return best_; }

    // The shapes of the first best combination, in walk order.
    std::vector<const Shape*> first_shapes() const {
        std::vector<const Shape*> out;
        for (size_t k = 0; k < first_cands_.size(); ++k) out.push_back(&(*reqs_[k].table)[first_cands_[k].shape]);
        return out;
    }

    const Counts& counts() const { return c_; }

   private:

    bool expired() const { return !expired_.is_none() && static_cast<bool>(py::bool_(expired_())); }

    Counts c_;
    std::vector<bool> same_;
    bool distinct_, hand_only_;
    py::object expired_;  // None, or a callable: True when the time is up (the deadline or the stop token)
    std::vector<Requirement> reqs_;
    uint64_t hand_bits_ = 0, pool_bits_ = 0;
    int best_ = -1;
    py::object first_;
    std::vector<Cand> first_cands_;
    bool complete_ = true;
};

Walk::Walk(Search& search, int* limit, Visitor& visitor) : search_(search), limit_(limit), visitor_(visitor) {
    const auto& reqs = search.reqs_;
    const int n = static_cast<int>(reqs.size());
    rest_s_.assign(n + 1, 0);
    rest_need_.assign(n + 1, 0);
    rest_u_.assign(n + 1, 0);
    for (int k = n - 1; k >= 0; --k) {
        const auto& cs = reqs[k].cands;
        if (search.hand_only_) {  // sorted by s, and nothing to come: need = q = 0
            rest_s_[k] = rest_u_[k] = rest_s_[k + 1] + cs[0].s;
            continue;
        }
        int ms = 1 << 30, mn = 1 << 30, mu = 1 << 30;
        for (const Cand& x : cs) {
            ms = std::min(ms, x.s);
            mn = std::min(mn, x.need);
            mu = std::min(mu, x.s - x.q);
        }
        rest_s_[k] = rest_s_[k + 1] + ms;
        rest_need_[k] = rest_need_[k + 1] + mn;
        rest_u_[k] = rest_u_[k + 1] + mu;
    }
    last_ = n - 1;
    for (int i = 0; i < kNatural; ++i)
        if (search.c_.hn[i]) copies_[i % 13 + 1] += search.c_.hn[i];
}

void Walk::tick(uint32_t mask) {  // _Walk._tick
    ++leaves_;
    if (!search_.expired_.is_none() && !(leaves_ & mask) && search_.expired()) {
        search_.complete_ = false;
        throw StopWalk{};
    }
}

std::pair<int, int> Walk::run_overlap(const Shape& sh, uint64_t run_bits) const {  // _Walk._run_overlap
    if (!((run_bits | set_bits_) & sh.cmask)) return {0, 0};
    const auto& hn = search_.c_.hn;
    const auto& pn = search_.c_.pn;
    int dup = 0, lost = 0;
    for (int i : sh.cards) {
        if (!hn[i]) continue;
        const int r = i % 13 + 1;
        if (cover_[i] >= hn[i]) {
            ++dup;  // another run holds every copy: this slot takes a card to come or a wild
            if (!pn[i]) ++lost;
        } else if (set_room_[r] + run_take_[r] >= copies_[r]) {
            ++dup;  // a set would lose the copy instead
        }
    }
    return {dup, lost};
}

// _Walk._overlap: hand naturals x counts on that the chosen melds already take, and how many of
// those slots no card still to come can fill.
std::pair<int, int> Walk::overlap(const Cand& x, const Shape& sh, uint64_t run_bits) const {
    if (sh.run) return run_overlap(sh, run_bits);
    const int r = sh.rank;
    const int room = set_room_[r], took = run_take_[r];
    if (!room && !took) return {0, 0};
    const int have = copies_[r];
    const int gain = std::min(have, room + sh.size + took) - std::min(have, room + took);
    const int dup = std::min(sh.size, have) - gain;
    if (took) return {dup, 0};
    const int opened = x.s + dup;
    int pool = 0;
    for (int i : sh.cards) pool += search_.c_.pn[i];
    return {dup, opened - std::min(opened, pool) - (x.s - x.q)};
}

// _Walk._child: path with x chosen for requirement k; false when the bound rules it out.
bool Walk::child(int k, const Cand& x, const Path& path, Path& out) const {
    const Shape& sh = (*search_.reqs_[k].table)[x.shape];
    uint32_t ranks = path.ranks;
    if (search_.distinct_ && !sh.run) {
        const uint32_t bit = uint32_t{1} << sh.rank;
        if (ranks & bit) return false;
        ranks |= bit;
    }
    const auto [dup, lost] = k ? overlap(x, sh, path.run_bits) : std::pair<int, int>{0, 0};
    const int opened = path.opened + x.s + dup;
    const int wmax = path.wmax + sh.wmax;
    int need = path.need + x.need;
    const int unfilled = path.unfilled + x.s - x.q + lost;
    if (dup) {
        need = std::max(need, opened - wmax);
        const int limit = *limit_;
        const int hw = search_.c_.hw, pw = search_.c_.pw;
        if (opened + rest_s_[k + 1] - hw > limit || need + rest_need_[k + 1] > limit ||
            unfilled + rest_u_[k + 1] > hw + pw)
            return false;
    }
    out.need = need;
    out.opened = opened;
    out.unfilled = unfilled;
    out.wmax = wmax;
    out.ranks = ranks;
    out.bits = path.bits | sh.cmask;
    out.run_bits = sh.run ? path.run_bits | sh.cmask : path.run_bits;
    out.clash = path.clash || (path.bits & sh.cmask) != 0;
    return true;
}

// _Walk._node: try each candidate of requirement k from start (identical requirements: no going back).
void Walk::node(int k, int start, const Path& path) {
    const auto& cs = search_.reqs_[k].cands;
    tick(255);
    const int hw = search_.c_.hw, pw = search_.c_.pw;
    int s_room = *limit_ + hw - rest_s_[k + 1] - path.opened;
    int need_room = *limit_ - rest_need_[k + 1] - path.need;
    const int u_room = hw + pw - rest_u_[k + 1] - path.unfilled;
    for (int idx = search_.same_[k] ? start : 0; idx < static_cast<int>(cs.size()); ++idx) {
        const Cand& x = cs[idx];
        if (x.s > s_room) break;
        if (x.need > need_room || x.s - x.q > u_room) continue;
        Path next;
        if (!child(k, x, path, next)) continue;
        if (k == last_)
            leaf(x, next);
        else
            descend(k, idx, x, next);
        s_room = *limit_ + hw - rest_s_[k + 1] - path.opened;  // the bound may have tightened
        need_room = *limit_ - rest_need_[k + 1] - path.need;
    }
}

void Walk::leaf(const Cand& x, const Path& path) {  // _Walk._leaf
    if (visitor_.skip(path.bits)) return;
    tick(63);
    chosen_.push_back(&x);
    try {
        visitor_.leaf(chosen_, path);
    } catch (...) {
        chosen_.pop_back();
        throw;
    }
    chosen_.pop_back();
}

// _Walk._descend: choose x, walk the next requirement, and undo the choice (also when the walk stops).
void Walk::descend(int k, int idx, const Cand& x, const Path& path) {
    const Shape& sh = (*search_.reqs_[k].table)[x.shape];
    const auto& hn = search_.c_.hn;
    chosen_.push_back(&x);
    if (sh.run) {
        std::vector<int> took;
        for (int i : sh.cards) {
            if (cover_[i] < hn[i]) took.push_back(i % 13 + 1);
            ++cover_[i];
        }
        for (int r : took) ++run_take_[r];
        node(k + 1, idx, path);  // a StopWalk unwinds the whole walk: nothing to undo
        for (int r : took) --run_take_[r];
        for (int i : sh.cards) --cover_[i];
    } else {
        const uint64_t saved = set_bits_;
        set_bits_ |= sh.cmask;
        set_room_[sh.rank] += sh.size;
        node(k + 1, idx, path);
        set_room_[sh.rank] -= sh.size;
        set_bits_ = saved;
    }
    chosen_.pop_back();
}

// ------------------------------------------------------------------ the boundary

// Shapes from Python: (run, size, wmax, rank, cards) each.
using ShapeTuple = std::tuple<bool, int, int, int, std::vector<int>>;

std::vector<Shape> shapes_from(const std::vector<ShapeTuple>& items) {
    if (items.size() > kMaxMelds) throw std::invalid_argument("at most 8 shapes in a combination");
    std::vector<Shape> out;
    for (const auto& [run, size, wmax, rank, cards] : items) {
        if (size < 1 || size > 13 || wmax < 0 || wmax >= size || rank < 0 || rank > 13)
            throw std::invalid_argument("bad shape");
        if (cards.empty() || cards.size() > 13) throw std::invalid_argument("bad shape cards");
        Shape sh;
        sh.run = run;
        sh.size = size;
        sh.wmax = wmax;
        sh.rank = rank;
        for (int i : cards) {
            if (i < 0 || i >= kNatural) throw std::invalid_argument("card index out of range");
            sh.cards.push_back(i);
            sh.cmask |= uint64_t{1} << i;
        }
        if (!run && (rank < 1 || cards.size() != 4)) throw std::invalid_argument("a set shape needs its rank's 4 cards");
        out.push_back(std::move(sh));
    }
    return out;
}

std::vector<const Shape*> pointers(const std::vector<Shape>& shapes) {
    std::vector<const Shape*> out;
    for (const Shape& sh : shapes) out.push_back(&sh);
    return out;
}

py::object py_combo_cost(const std::vector<ShapeTuple>& items, const std::vector<int>& hn,
                         const std::vector<int>& pn, int hw, int pw) {
    const Counts c = make_counts(hn, pn, hw, pw);
    const auto shapes = shapes_from(items);
    const int cost = combo_cost(pointers(shapes), c.hn, c.pn, c.hw, c.pw);
    return cost < 0 ? py::object(py::none()) : py::object(py::int_(cost));
}

py::object py_price_combo(const std::vector<ShapeTuple>& items, const std::vector<int>& hn,
                          const std::vector<int>& pn, int hw, int pw) {
    const Counts c = make_counts(hn, pn, hw, pw);
    const auto shapes = shapes_from(items);
    const auto ptrs = pointers(shapes);
    Pricer pricer(ptrs, c.hn, c.pn, c.hw, c.pw);
    Split split;
    int cost = 0;
    if (!pricer.best(cost, &split)) return py::none();
    auto side = [&](const std::vector<Part>& parts) {
        py::list out;
        for (size_t j = 0; j < parts.size(); ++j) {
            if (shapes[j].run)
                out.append(py::tuple(py::cast(parts[j].cards)));
            else
                out.append(parts[j].count);
        }
        return py::tuple(out);
    };
    return py::make_tuple(cost, side(split.hand), side(split.pool));
}

// ------------------------------------------------------------------ nothing to come (handonly.py)

// handonly.shares_cards: two of the shapes cover a common card.
bool shares_cards(const std::vector<const Shape*>& shapes) {
    uint64_t seen = 0;
    for (const Shape* sh : shapes) {
        if (seen & sh->cmask) return true;
        seen |= sh->cmask;
    }
    return false;
}

// handonly.hand_melds: the melds of a combination that costs nothing from the hand alone, each as
// (card, role) pairs (role -1: the card is itself); `wild_cards` the hand's wilds in card order.
std::vector<std::vector<std::pair<int, int>>> hand_melds(const std::vector<const Shape*>& shapes, const Counts& c,
                                                         const std::vector<int>& wild_cards) {
    Split split;
    const size_t n = shapes.size();
    if (shares_cards(shapes)) {  // the first free split of price_combo
        Pricer pricer(shapes, c.hn, c.pn, c.hw, c.pw);
        int cost = -1;
        if (!pricer.best(cost, &split) || cost != 0) throw std::runtime_error("hand_melds: the combination is not free");
    } else {  // handonly.hand_split
        split.hand.assign(n, Part{});
        for (size_t j = 0; j < n; ++j) {
            const Shape& sh = *shapes[j];
            if (sh.run) {
                for (int i : sh.cards)
                    if (c.hn[i]) split.hand[j].cards.push_back(i);
            } else {
                int total = 0;
                for (int i : sh.cards) total += c.hn[i];
                split.hand[j].count = std::min(sh.size, total);
            }
        }
    }
    size_t next_wild = 0;
    auto wild = [&]() {
        if (next_wild >= wild_cards.size()) throw std::runtime_error("hand_melds: too few wilds");
        return wild_cards[next_wild++];
    };
    std::vector<int> left(c.hn);
    std::vector<std::vector<std::pair<int, int>>> built(n);
    for (size_t j = 0; j < n; ++j) {  // runs first: their exact cards, a wild for each card not held
        const Shape& sh = *shapes[j];
        if (!sh.run) continue;
        const std::vector<int>& mine = split.hand[j].cards;
        for (int i : sh.cards) {
            if (std::find(mine.begin(), mine.end(), i) != mine.end()) {
                --left[i];
                built[j].emplace_back(i, -1);
            } else {
                built[j].emplace_back(wild(), i);
            }
        }
    }
    for (size_t j = 0; j < n; ++j) {  // then sets: their naturals in card order, wilds standing for the first
        const Shape& sh = *shapes[j];
        if (sh.run) continue;
        int k = split.hand[j].count;
        std::vector<int> naturals;
        for (int i : sh.cards) {
            while (k && left[i]) {
                --left[i];
                --k;
                naturals.push_back(i);
            }
        }
        if (naturals.empty()) throw std::runtime_error("hand_melds: a set with no natural");
        for (int i : naturals) built[j].emplace_back(i, -1);
        const int n_wild = sh.size - static_cast<int>(naturals.size());
        for (int t = 0; t < n_wild; ++t) built[j].emplace_back(wild(), naturals[0]);
    }
    return built;
}

// search.hand_lay_down and search.contract_possible after quick_reject, in one call: the search with
// nothing to come, find(zero=True). `counts` the hand's counts by card index, `wilds` the wild card
// indexes (ascending). With `melds`: the lay-down in walk order (as hand_melds), or None; without:
// whether the contract can be made.
py::object hand_lay_down(const std::vector<int>& counts, const std::vector<int>& wilds,
                         const std::vector<std::pair<bool, int>>& reqs, const std::vector<bool>& same,
                         const std::string& ace, const std::string& limit, bool distinct, bool melds) {
    if (counts.size() < static_cast<size_t>(kNatural) || counts.size() > 64)
        throw std::invalid_argument("counts must cover the 52 natural cards");
    std::vector<int> hn(counts.begin(), counts.begin() + kNatural);
    int hw = 0;
    std::vector<int> wild_cards;  // shapes.Counts.hwild: each wild, in card order, as many as held
    int before = -1;
    for (int w : wilds) {
        if (w < 0 || w >= static_cast<int>(counts.size()) || w <= before)
            throw std::invalid_argument("wild indexes must be ascending card indexes");
        before = w;
        if (counts[w] < 0 || counts[w] > kMaxCount || hw + counts[w] > kMaxCount)
            throw std::invalid_argument("card counts must be 0..64");
        for (int t = 0; t < counts[w]; ++t) wild_cards.push_back(w);
        hw += counts[w];
        if (w < kNatural) hn[w] = 0;
    }
    Search search(hn, std::vector<int>(kNatural, 0), hw, 0, reqs, same, ace, limit, distinct, true, py::none());
    search.find_best(true);
    if (!melds) return py::bool_(search.best() == 0);
    if (search.best() != 0) return py::none();
    return py::cast(hand_melds(search.first_shapes(), search.counts(), wild_cards));
}

}  // namespace

PYBIND11_MODULE(_contract, m) {
    m.doc() = "Contract Shanghai's compiled core: the exact distance search (mirrors solver/contract/search.py)";
    m.def("combo_cost", &py_combo_cost, py::arg("shapes"), py::arg("hn"), py::arg("pn"), py::arg("hw"),
          py::arg("pw"), "shapes.combo_cost: the exact fewest extra cards of a combination, or None");
    m.def("price_combo", &py_price_combo, py::arg("shapes"), py::arg("hn"), py::arg("pn"), py::arg("hw"),
          py::arg("pw"), "shapes.price_combo: (cost, hand split, pool split) of the cheapest split, or None");
    m.def("hand_lay_down", &hand_lay_down, py::arg("counts"), py::arg("wilds"), py::arg("reqs"), py::arg("same"),
          py::arg("ace"), py::arg("limit"), py::arg("distinct"), py::arg("melds"),
          "search.hand_lay_down (melds=True: the melds as (card, role) pairs in walk order, or None) and "
          "contract_possible's search (melds=False: a bool)");
    py::class_<Search>(m, "Search", "search.DistanceSearch's candidates and walks")
        .def(py::init<const std::vector<int>&, const std::vector<int>&, int, int,
                      const std::vector<std::pair<bool, int>>&, const std::vector<bool>&, const std::string&,
                      const std::string&, bool, bool, py::object>(),
             py::arg("hn"), py::arg("pn"), py::arg("hw"), py::arg("pw"), py::arg("reqs"), py::arg("same"),
             py::arg("ace"), py::arg("limit"), py::arg("distinct"), py::arg("hand_only"), py::arg("expired"))
        .def("candidates", &Search::candidates)
        .def("find", &Search::find, py::arg("zero"))
        .def("each_best", &Search::each_best, py::arg("best"), py::arg("visit"), py::arg("skip"),
             py::arg("stop_walk"))
        .def("price_moved", &Search::py_price_moved, py::arg("combo"), py::arg("card"), py::arg("to_hand"))
        .def("outs", &Search::outs, py::arg("best"))
        .def_property_readonly("complete", &Search::complete);
}
