// Position keys. Boards are immutable, so a board's key is computed once from its contents;
// the position key is the XOR over all boards of that key salted with the board's coordinate,
// so making and unmaking moves update it incrementally (XOR is its own inverse).
// Never absl::Hash: it is salted per process, and keys must be reproducible (bench signature).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "movegen/board.h"
#include "movegen/keys.h"

namespace fived::movegen {

namespace {
constexpr std::uint64_t KeySeed = 0x5D5D'C4E5'5A11'7E5Dull;
}

void compute_board_key(Board& b) {
    // The mailbox determines the pieces; the unmoved flags matter for legality (castling, double
    // steps, en passant), so they enter the key too.
    struct {
        Piece    squares[64];
        Bitboard unmoved;
    } blob;
    std::memcpy(blob.squares, b.squares, sizeof blob.squares);
    blob.unmoved = b.unmoved;
    b.key        = XXH3_64bits_withSeed(&blob, sizeof blob, KeySeed);
}

Key board_slot_key(Key boardKey, int l, int v) {
    const std::uint64_t coordSeed =
        (std::uint64_t(std::uint32_t(l)) << 32) ^ std::uint64_t(std::uint32_t(v)) ^ KeySeed;
    return XXH3_64bits_withSeed(&boardKey, sizeof boardKey, coordSeed);
}

} // namespace fived::movegen
