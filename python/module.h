#pragma once
// Shared pieces of the Python module's bindings (python/*.cpp).
#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>

#include <pybind11/pybind11.h>

#include "notation/syntax.h"

namespace fived::python {

// Raises fived.NotationError carrying file, line, col and the cause of a diagnostic.
[[noreturn]] void raise_notation(const notation::Diagnostic& d);
// The same without a place in the text (line and col None): `file: cause`.
[[noreturn]] void raise_notation(const std::string& file, const std::string& cause);

// Runs work() on a thread of its own without the GIL; the calling thread polls for signals
// every 20 ms and, when a handler raises (KeyboardInterrupt on Ctrl-C), sets stop (the solver's
// SolveOptions::interrupt, as the command line's signal handler does), waits for the work to
// end and re-raises. No thread outlives the call; an exception of work() is raised here.
template <class R, class F>
R run_interruptible(std::atomic<bool>& stop, F work) {
    std::packaged_task<R()> task(std::move(work));
    std::future<R>          done = task.get_future();
    std::thread             worker(std::move(task));
    for (;;) {
        bool ready = false;
        {
            pybind11::gil_scoped_release nogil;
            ready = done.wait_for(std::chrono::milliseconds(20)) == std::future_status::ready;
        }
        if (ready) break;
        if (PyErr_CheckSignals() != 0) {
            stop.store(true);
            {
                pybind11::gil_scoped_release nogil;
                worker.join();
            }
            throw pybind11::error_already_set();
        }
    }
    worker.join();
    return done.get();
}

void bind_verify(pybind11::module_& m);    // verify.cpp
void bind_positions(pybind11::module_& m); // fived_module.cpp: Status, ActionIterator, Position

} // namespace fived::python
