// Manipulation Shanghai's compiled core, the engine's part: what the engine's legal-action listing
// asks of every position with no joker in play, in one call.
//
// engine_position(codes, hand, ace, decks) returns, for the table of meld codes `codes` and the
// hand counts `hand` (Cards.counts), exactly what the pure Python computes:
//   - the playable bound (solver/manipulation/bound.py: playable_bound), as hand counts;
//   - how many cards the greedy play adds (solver/manipulation/simple.py: greedy_play): the first
//     longest meld the hand makes (in hand_melds' order), again and again, then the additions of
//     each meld in turn, the first card (by index) that grows it, again and again.
// meld_codes(melds) turns a table's melds (card indexes, no joker) into the codes once per table.
//
// Only natural cards: the Python side (solver/manipulation/engine_core.py) sends a position only
// when no joker is on the table or in the hand, and every meld is a valid natural set or run; the
// core checks again and throws std::invalid_argument (a ValueError in Python), never aborts. No
// global mutable state.
//
// Compiled into the same extension as manipulation.cpp (solver.native._manipulation);
// manipulation.cpp's module definition calls register_engine.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace py = pybind11;

// solver/native/src/manipulation.cpp's natural_program (natural._program), for stage 3.
std::tuple<int, std::vector<std::vector<int>>, std::vector<int>, std::int64_t> engine_natural_program(
    const std::vector<int>& tc, const std::vector<int>& bc, int ace, std::int64_t budget, int target);

namespace {

constexpr int kNatural = 52;
constexpr int kLowAce = 0, kHighAce = 1, kBothAces = 2;
constexpr int kMaxHandCopies = 64;  // far beyond any deck; only a guard on what crosses

// A natural meld: a set (one rank, a mask of suits) or a run (one suit, rank positions lo..hi).
struct Meld {
    bool set = false;
    int rank = 0;  // set: 0..12 (card index % 13)
    int suits = 0;  // set: bit s for each suit held
    int suit = 0;  // run
    int lo = 0, hi = 0;  // run: positions 1..14 (1 and 14 are the ace)
    int size() const { return set ? __builtin_popcount(static_cast<unsigned>(suits)) : hi - lo + 1; }
};

int card_index(int suit, int position) { return suit * 13 + (position == 14 ? 0 : position - 1); }
int lowest(int ace) { return ace == kHighAce ? 2 : 1; }
int highest(int ace) { return ace == kLowAce ? 13 : 14; }

// A meld's code: bit 0 set/run; a set: rank << 1, suits << 5; a run: suit << 1, lo << 3, hi << 7.
long encode(const Meld& m) {
    return m.set ? (long{m.rank} << 1) | (long{m.suits} << 5) : 1 | (long{m.suit} << 1) | (long{m.lo} << 3) | (long{m.hi} << 7);
}

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument(why); }

Meld decode(long code, int ace) {
    if (code < 0 || code >= (1L << 11)) refuse("engine_position: a meld code out of range");
    Meld m;
    m.set = (code & 1) == 0;
    if (m.set) {
        m.rank = static_cast<int>((code >> 1) & 15);
        m.suits = static_cast<int>((code >> 5) & 15);
        if (code >> 9 || m.rank > 12 || m.size() < 3) refuse("engine_position: not a set's code");
    } else {
        m.suit = static_cast<int>((code >> 1) & 3);
        m.lo = static_cast<int>((code >> 3) & 15);
        m.hi = static_cast<int>((code >> 7) & 15);
        if (m.lo < lowest(ace) || m.hi > highest(ace) || m.hi - m.lo + 1 < 3 || m.hi - m.lo + 1 > 13)
            refuse("engine_position: not a run's code under this ace");
    }
    return m;
}

// The meld of these card indexes (meld_kinds with no wild: a set of 3-4 distinct suits of a rank,
// or a run of 3-13 distinct ranks of a suit in a row under `ace`); invalid_argument otherwise.
Meld parse(const std::vector<int>& cards, int ace) {
    const int n = static_cast<int>(cards.size());
    if (n < 3 || n > 13) refuse("meld_codes: a meld has 3-13 cards");
    for (int c : cards)
        if (c < 0 || c >= kNatural) refuse("meld_codes: a card index outside 0-51 (no joker)");
    Meld m;
    int suits = 0, ranks = 0;
    for (int c : cards) {
        suits |= 1 << (c / 13);
        ranks |= 1 << (c % 13);
    }
    const int nsuits = __builtin_popcount(static_cast<unsigned>(suits));
    const int nranks = __builtin_popcount(static_cast<unsigned>(ranks));
    if (nranks == 1 && nsuits == n && n <= 4) {
        m.set = true;
        m.rank = cards[0] % 13;
        m.suits = suits;
        return m;
    }
    if (nsuits != 1 || nranks != n) refuse("meld_codes: not a set nor a run");
    m.suit = cards[0] / 13;
    int lo = 99, hi = 0;
    for (int r = 1; r < 13; ++r)  // the ranks other than the ace, as positions 2..13
        if (ranks >> r & 1) lo = std::min(lo, r + 1), hi = std::max(hi, r + 1);
    if (ranks & 1) {  // the ace: position 1 or 14, whichever keeps the run in a row
        const bool low_fits = ace != kHighAce && hi - 1 + 1 == n;
        const bool high_fits = ace != kLowAce && 14 - lo + 1 == n;
        if (low_fits) lo = 1;
        else if (high_fits) hi = 14;
        else refuse("meld_codes: ranks not in a row");
    } else if (hi - lo + 1 != n) {
        refuse("meld_codes: ranks not in a row");
    }
    m.lo = lo;
    m.hi = hi;
    return m;
}

// The cards (by index, ascending) that grow the meld into a valid meld: _growths without wilds.
int growths(const Meld& m, int ace, std::array<int, 4>& out) {
    int k = 0;
    if (m.set) {
        if (m.size() >= 4) return 0;
        for (int s = 0; s < 4; ++s)
            if (!(m.suits >> s & 1)) out[k++] = 13 * s + m.rank;
        return k;
    }
    if (m.size() >= 13) return 0;
    if (m.lo - 1 >= lowest(ace)) out[k++] = card_index(m.suit, m.lo - 1);
    if (m.hi + 1 <= highest(ace)) {
        const int c = card_index(m.suit, m.hi + 1);
        if (k == 0 || out[0] != c) out[k++] = c;
    }
    if (k == 2 && out[1] < out[0]) std::swap(out[0], out[1]);
    return k;
}

void grow(Meld& m, int card) {
    if (m.set) {
        m.suits |= 1 << (card / 13);
        return;
    }
    if (m.lo > 1 && card_index(m.suit, m.lo - 1) == card) --m.lo;  // else it is the card above the run
    else ++m.hi;
}

// The first longest meld the hand makes (hand_melds' order: sets rank by rank in the order the
// ranks first appear among the hand's cards, sizes 3 then 4; then runs suit by suit, from each
// start, longer and longer), or false when it makes none.
bool longest_hand_meld(const std::array<int, kNatural>& hand, int ace, Meld& best) {
    int best_size = 0;
    std::array<bool, 13> seen{};
    for (int c = 0; c < kNatural; ++c) {  // ranks in order of first appearance
        const int r = c % 13;
        if (!hand[c] || seen[r]) continue;
        seen[r] = true;
        int suits = 0;
        for (int s = 0; s < 4; ++s)
            if (hand[13 * s + r]) suits |= 1 << s;
        const int n = __builtin_popcount(static_cast<unsigned>(suits));
        if (n >= 3 && best_size < 3) {  // the first combination of three: the three lowest suits
            int three = 0;
            for (int s = 0, k = 0; s < 4 && k < 3; ++s)
                if (suits >> s & 1) three |= 1 << s, ++k;
            best = Meld{true, r, three, 0, 0, 0};
            best_size = 3;
        }
        if (n == 4 && best_size < 4) {
            best = Meld{true, r, 15, 0, 0, 0};
            best_size = 4;
        }
    }
    for (int s = 0; s < 4; ++s) {
        std::array<bool, 16> at{};
        for (int p = lowest(ace); p <= highest(ace); ++p) at[p] = hand[card_index(s, p)] > 0;
        for (int a = lowest(ace); a <= highest(ace); ++a) {
            if (!at[a]) continue;
            int b = a;
            while (b + 1 <= highest(ace) && at[b + 1] && b + 1 - a + 1 <= 13) ++b;
            const int n = b - a + 1;  // the longest run from a; a shorter one never beats it
            if (n >= 3 && n > best_size) {
                best = Meld{false, 0, 0, s, a, a + n - 1};
                best_size = n;
            }
        }
    }
    return best_size > 0;
}

void take(std::array<int, kNatural>& hand, const Meld& m) {
    if (m.set) {
        for (int s = 0; s < 4; ++s)
            if (m.suits >> s & 1) --hand[13 * s + m.rank];
    } else {
        for (int p = m.lo; p <= m.hi; ++p) --hand[card_index(m.suit, p)];
    }
}

int greedy_cards(std::vector<Meld> melds, std::array<int, kNatural> hand, int ace) {  // copies: it grows them
    int added = 0;
    Meld best;
    while (longest_hand_meld(hand, ace, best)) {
        take(hand, best);
        added += best.size();
        melds.push_back(best);
    }
    std::array<int, 4> cand{};
    for (std::size_t i = 0; i < melds.size();) {
        const int k = growths(melds[i], ace, cand);
        int j = 0;
        while (j < k && !hand[cand[j]]) ++j;
        if (j == k) {
            ++i;
            continue;
        }
        --hand[cand[j]];
        grow(melds[i], cand[j]);
        ++added;
    }
    return added;
}

// ---- the playable bound (bound.py), no joker: _run_capacity, _set_capacity, _neighbours ----------

int run_capacity(int n2, int n1, int m1, int m2) {
    // bound._run_capacity with no joker: runs ending at p (a), through p (b), starting at p (c)
    int best = 0;
    for (int a = 0; a <= n2; ++a)
        for (int c = 0; c <= m2; ++c) {
            if (a > n1 || c > m1) continue;
            const int b = std::min(n1 - a, m1 - c);
            best = std::max(best, a + b + c);
        }
    return best;
}

int set_capacity(int x, int y, int z, int decks) {
    int best = 0;
    for (int k = 1; k <= decks; ++k)
        if (std::min(x, k) + std::min(y, k) + std::min(z, k) >= 2 * k) best = k;
    return best;
}

std::vector<int> playable_bound(const std::array<int, kNatural>& tc, const std::array<int, kNatural>& hc,
                                int ace, int decks) {
    std::array<int, kNatural> counts{};
    for (int i = 0; i < kNatural; ++i) counts[i] = tc[i] + hc[i];
    auto at = [&](int suit, int q) { return q >= lowest(ace) && q <= highest(ace) ? counts[card_index(suit, q)] : 0; };
    std::vector<int> out(kNatural, 0);
    for (int i = 0; i < kNatural; ++i) {
        if (!hc[i]) continue;
        const int suit = i / 13, rank = i % 13;
        std::array<int, 3> others{};
        for (int s = 0, k = 0; s < 4; ++s)
            if (s != suit) others[k++] = counts[13 * s + rank];
        int total = set_capacity(others[0], others[1], others[2], decks);
        const int positions[2] = {rank == 0 ? (ace == kHighAce ? 14 : 1) : rank + 1, rank == 0 && ace == kBothAces ? 14 : 0};
        for (int p : positions)
            if (p) total += run_capacity(at(suit, p - 2), at(suit, p - 1), at(suit, p + 1), at(suit, p + 2));
        const int n = std::min(hc[i], total - tc[i]);
        if (n > 0) out[i] = n;
    }
    return out;
}

std::vector<long> meld_codes(const std::vector<std::vector<int>>& melds, int ace) {
    if (ace < kLowAce || ace > kBothAces) refuse("meld_codes: ace is 0, 1 or 2");
    std::vector<long> out;
    out.reserve(melds.size());
    for (const auto& cards : melds) out.push_back(encode(parse(cards, ace)));
    return out;
}

// ---- stage 3 as the engine asks it (play._natural_beyond -> natural.natural_play), no joker --------

constexpr int kMaxCopies = 4;  // natural._NATIVE_COPIES: more copies and the Python program runs
constexpr std::int64_t kBeyondBudget = 20000;  // play._natural_beyond's budget

// The sorted card indexes of a meld (natural._old_table's keys).
std::vector<int> meld_cards(const Meld& m) {
    std::vector<int> out;
    if (m.set) {
        for (int s = 0; s < 4; ++s)
            if (m.suits >> s & 1) out.push_back(13 * s + m.rank);
    } else {
        for (int p = m.lo; p <= m.hi; ++p) out.push_back(card_index(m.suit, p));
        std::sort(out.begin(), out.end());
    }
    return out;
}

// natural._old_first: the old melds the program rebuilt unchanged (their places, in old order), then
// the other melds ordered by the first old meld their cards come from (more of its cards first).
void old_first(const std::vector<Meld>& old, std::vector<std::vector<int>>& melds, py::list& kept, py::list& rest) {
    const int n = static_cast<int>(old.size());
    std::vector<std::vector<int>> keys;
    std::array<int, kNatural> home;
    home.fill(n);
    for (int k = 0; k < n; ++k) {
        keys.push_back(meld_cards(old[k]));
        for (int c : keys.back()) home[c] = std::min(home[c], k);
    }
    std::vector<std::vector<int>> sorted_melds;
    for (const auto& m : melds) {
        sorted_melds.push_back(m);
        std::sort(sorted_melds.back().begin(), sorted_melds.back().end());
    }
    std::vector<bool> taken(melds.size(), false);
    for (int k = 0; k < n; ++k)
        for (std::size_t j = 0; j < melds.size(); ++j)
            if (!taken[j] && sorted_melds[j] == keys[k]) {  // the first waiting meld of these cards
                taken[j] = true;
                kept.append(k);
                break;
            }
    struct Key {
        int low, count;
        std::size_t j;
    };
    std::vector<Key> order;
    for (std::size_t j = 0; j < melds.size(); ++j) {
        if (taken[j]) continue;
        int low = n, count = 0;
        for (int c : melds[j]) low = std::min(low, home[c]);
        for (int c : melds[j]) count += home[c] == low;
        order.push_back({low, -count, j});
    }
    std::stable_sort(order.begin(), order.end(), [&](const Key& a, const Key& b) {
        if (a.low != b.low) return a.low < b.low;
        if (a.count != b.count) return a.count < b.count;
        return melds[a.j] < melds[b.j];
    });
    for (const Key& key : order) rest.append(py::cast(melds[key.j]));
}

// natural_play(old, bound, at_least=greedy + 1, budget=20000) as play._natural_beyond asks it:
// None when the Python is to run it (more than four copies of a card), else (status, kept, rest,
// played): status -1 for natural_play's None (out of budget, or ace=both with a possible run over
// all 14 positions), 0 for no play reaching the target, 1 for a play (kept and rest as old_first).
py::object beyond(const std::vector<Meld>& old, const std::array<int, kNatural>& tc, const std::vector<int>& bound,
                  std::size_t width, int ace, int target) {
    std::vector<int> t(tc.begin(), tc.end());
    for (int i = 0; i < kNatural; ++i)
        if (t[i] + bound[i] > kMaxCopies) return py::none();
    if (ace == kBothAces)
        for (int s = 0; s < 4; ++s) {
            bool every = t[13 * s] + bound[13 * s] >= 2;
            for (int r = 1; r < 13 && every; ++r) every = t[13 * s + r] + bound[13 * s + r] > 0;
            if (every) return py::make_tuple(-1, py::list(), py::list(), py::none());
        }
    auto [status, melds, used, work] = engine_natural_program(t, bound, ace, kBeyondBudget, target);
    (void)work;
    if (status <= 0) return py::make_tuple(status < 0 ? -1 : 0, py::list(), py::list(), py::none());
    py::list kept, rest;
    old_first(old, melds, kept, rest);
    py::tuple played(width);
    for (std::size_t i = 0; i < width; ++i) played[i] = py::int_(i < static_cast<std::size_t>(kNatural) ? used[i] - tc[i] : 0);
    return py::make_tuple(1, kept, rest, played);
}

py::tuple engine_position(const std::vector<long>& codes, const std::vector<int>& hand, int ace, int decks, int ask) {
    if (ace < kLowAce || ace > kBothAces) refuse("engine_position: ace is 0, 1 or 2");
    if (decks < 1 || decks > 4) refuse("engine_position: decks is 1-4");
    if (ask < 0 || ask > kMaxHandCopies) refuse("engine_position: ask is 0-64");
    if (hand.size() < static_cast<std::size_t>(kNatural)) refuse("engine_position: hand counts of every card");
    std::array<int, kNatural> hc{}, tc{};
    for (std::size_t i = 0; i < hand.size(); ++i) {
        if (hand[i] < 0 || hand[i] > kMaxHandCopies) refuse("engine_position: a hand count out of range");
        if (i >= static_cast<std::size_t>(kNatural) && hand[i]) refuse("engine_position: a joker in the hand");
        if (i < static_cast<std::size_t>(kNatural)) hc[i] = hand[i];
    }
    std::vector<Meld> melds;
    melds.reserve(codes.size());
    for (long code : codes) {
        melds.push_back(decode(code, ace));
        const Meld& m = melds.back();
        if (m.set) {
            for (int s = 0; s < 4; ++s)
                if (m.suits >> s & 1) ++tc[13 * s + m.rank];
        } else {
            for (int p = m.lo; p <= m.hi; ++p) ++tc[card_index(m.suit, p)];
        }
    }
    std::vector<int> bound = playable_bound(tc, hc, ace, decks);
    py::tuple counts(hand.size());
    int playable = 0;
    for (std::size_t i = 0; i < hand.size(); ++i) {
        const int n = i < static_cast<std::size_t>(kNatural) ? bound[i] : 0;
        playable += n;
        counts[i] = py::int_(n);
    }
    // the greedy play is asked only when the bound leaves room for a play (as Playable asks it)
    const int greedy = playable ? greedy_cards(melds, hc, ace) : 0;
    // stage 3 only where Playable.at_least(n), n <= ask, needs it: more than the greedy play adds
    py::object natural = py::none();
    if (greedy < playable && greedy < ask) natural = beyond(melds, tc, bound, hand.size(), ace, greedy + 1);
    Meld first;
    const bool melds_of_its_own = longest_hand_meld(hc, ace, first);  // hand_melds(hand) is not empty
    return py::make_tuple(counts, playable, greedy, natural, melds_of_its_own);
}

// ---- the check of a play (game._play_error: validate_rearrangement), natural cards only --------------

// The hand cards a play adds (melds.validate_rearrangement on the melds that changed: `gone`, the old
// melds the new table does not keep, and `fresh`, its new melds), or None when the Python is to
// referee it (a fresh meld that is no valid natural set or run, a table card lost, a card invented):
// the Python gives the reason. Card indexes outside 0-51 are refused (invalid_argument).
py::object check_play(const std::vector<std::vector<int>>& gone, const std::vector<std::vector<int>>& fresh,
                      const std::vector<int>& hand, int ace) {
    if (ace < kLowAce || ace > kBothAces) refuse("check_play: ace is 0, 1 or 2");
    if (hand.size() < static_cast<std::size_t>(kNatural)) refuse("check_play: hand counts of every card");
    std::array<int, kNatural> added{};
    for (const auto& cards : gone)
        for (int c : cards) {
            if (c < 0 || c >= kNatural) refuse("check_play: a card index outside 0-51");
            --added[c];
        }
    for (const auto& cards : fresh) {
        for (int c : cards)
            if (c < 0 || c >= kNatural) refuse("check_play: a card index outside 0-51");
        try {
            parse(cards, ace);
        } catch (const std::invalid_argument&) {
            return py::none();  // not a valid meld: the Python says why
        }
        for (int c : cards) ++added[c];
    }
    py::tuple played(hand.size());
    for (std::size_t i = 0; i < hand.size(); ++i) {
        const int n = i < static_cast<std::size_t>(kNatural) ? added[i] : 0;
        if (n < 0 || n > hand[i]) return py::none();  // a table card lost, or a card invented
        played[i] = py::int_(n);
    }
    return played;
}

}  // namespace

void register_engine(py::module_& m) {
    m.def("check_play", &check_play, py::arg("gone"), py::arg("fresh"), py::arg("hand"), py::arg("ace"),
          "The hand counts a play adds (the old melds it drops, its new melds), or None: the Python referees.");
    m.def("meld_codes", &meld_codes, py::arg("melds"), py::arg("ace"),
          "The codes of a table's natural melds (card indexes; ace 0 low, 1 high, 2 both) for engine_position.");
    m.def("engine_position", &engine_position, py::arg("codes"), py::arg("hand"), py::arg("ace"), py::arg("decks"),
          py::arg("ask"),
          "(bound counts, cards in the bound, cards the greedy play adds, stage 3 or None, whether the hand makes "
          "a meld) of a position with no joker in play; stage 3 (status, kept old melds, other melds, played counts) only when the greedy play "
          "adds fewer cards than the bound holds and than ask.");
}
