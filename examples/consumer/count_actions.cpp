// Reads a 5DPGN file and prints the number of legal actions in the final position of its main
// line: the rules engine and the reader used as a library.
#include <fstream>
#include <iostream>
#include <sstream>

#include "movegen/actions.h"
#include "notation/game.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: count_actions FILE.5dpgn\n";
        return 2;
    }
    std::ifstream     in(argv[1], std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
        std::cerr << argv[1] << ": cannot read\n";
        return 2;
    }
    const auto game = fived::notation::load_game(text.str(), argv[1]);
    if (!game.ok()) {
        std::cerr << game.status().message() << '\n';
        return 2;
    }
    fived::movegen::Multiverse            mv = game->start.fork();
    std::vector<fived::movegen::MoveUndo> undo;
    fived::notation::play_main_line(mv, *game, game->mainLine.size(), undo);
    std::cout << fived::movegen::count_legal_actions(mv) << '\n';
    return 0;
}
