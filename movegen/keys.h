#pragma once

#include "movegen/types.h"

namespace fived::movegen {

// The contribution of a board with key boardKey standing at (l, v) to the position key.
Key board_slot_key(Key boardKey, int l, int v);

} // namespace fived::movegen
