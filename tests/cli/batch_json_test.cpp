// The records of `fived batch` (report/batch_json.h), from a child's output and end made by
// hand: the tree stays out, a crash or a status that is not fived's is an internal error, and an
// error the child printed is kept.
#include <gtest/gtest.h>

#include "report/batch_json.h"
#include "report/json_text.h"

namespace fived::report {
namespace {

TEST(BatchJson, KeepsTheChildsAnswerButItsTree) {
    ChildEnd end;
    end.code                 = 0;
    const nlohmann::json rec = batch_child_record(batch_record("a.5dpgn", false),
        R"j({"result":"mate","tree":"1. ...","prelude":[],"exit_code":0})j", "", end);
    EXPECT_EQ(
        json_text(rec), R"j({"exit_code":0,"file":"a.5dpgn","mode":"solve","result":"mate"})j");
}

TEST(BatchJson, ACrashIsAnInternalErrorWithoutAResult) {
    ChildEnd end;
    end.signaled             = true;
    end.signal               = "SIGSEGV";
    end.signalText           = "Segmentation fault";
    const nlohmann::json rec = batch_child_record(
        batch_record("a.5dpgn", true), R"j({"verdict":"sound","exit_code":0})j", "oops", end);
    EXPECT_EQ(json_text(rec),
        R"j({"error":"crashed: killed by SIGSEGV (Segmentation fault): oops","exit_code":4,)j"
        R"j("file":"a.5dpgn","mode":"verify","signal":"SIGSEGV"})j");
}

TEST(BatchJson, AStatusNotFivedsIsAnInternalError) {
    ChildEnd end;
    end.code                 = 127;
    const nlohmann::json rec = batch_child_record(batch_record("a.5dpgn", false), "", "", end);
    EXPECT_EQ(json_text(rec),
        R"j({"error":"no result: the child exited with status 127",)j"
        R"j("exit_code":4,"file":"a.5dpgn","mode":"solve"})j");
}

TEST(BatchJson, BadInputKeepsTheChildsErrorOrSaysThereIsNoResult) {
    ChildEnd end;
    end.code = 2;
    EXPECT_EQ(json_text(batch_child_record(batch_record("a", false), "", "a: 1:1: bad", end)),
        R"j({"error":"a: 1:1: bad","exit_code":2,"file":"a","mode":"solve"})j");
    EXPECT_EQ(json_text(batch_child_record(batch_record("a", false), "", "", end)),
        R"j({"error":"no result (exit 2)","exit_code":2,"file":"a","mode":"solve"})j");
    EXPECT_EQ(json_text(batch_error_record("b", true, 2, "b: not a regular file")),
        R"j({"error":"b: not a regular file","exit_code":2,"file":"b","mode":"verify"})j");
}

} // namespace
} // namespace fived::report
