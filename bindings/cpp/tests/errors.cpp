// metatensor::Error and the crossing of errors through the C layer (errors.hpp).
#include <stdexcept>

#include "helpers.hpp"

using namespace metatensor;

namespace {
struct CustomError: std::runtime_error {
    CustomError(): std::runtime_error("custom failure") {}
};

// An array whose shape member throws a C++ exception of its own type.
class ThrowingArray: public EmptyDataArray<double> {
public:
    ThrowingArray(): EmptyDataArray<double>({2, 2}) {}
    DLDataType dtype() const override {
        throw CustomError();
    }
};
} // namespace

TEST(Error, IsARuntimeError) {
    auto error = Error("message");
    const std::runtime_error& base = error;
    EXPECT_STREQ(base.what(), "message");
}

TEST(CheckStatus, ThrowsTheLastError) {
    // a labels position with the wrong number of values fails in the library
    auto labels = Labels({"a", "b"}, {{0, 1}});
    EXPECT_EQ(test::error_of([&] { labels.position({1}); }),
        "invalid parameter: expected label of size 2 in mts_labels_position, got size 1");
    EXPECT_NO_THROW(details::check_status(MTS_SUCCESS));
}

TEST(CheckPointer, ThrowsTheLastError) {
    EXPECT_EQ(test::error_of([] { Labels({"not valid"}, {{0}}); }),
        "invalid parameter: 'not valid' is not a valid label name");
    int value = 0;
    EXPECT_NO_THROW(details::check_pointer(&value));
}

TEST(CatchExceptions, ReturnsSuccessWithoutException) {
    int calls = 0;
    EXPECT_EQ(details::catch_exceptions([&](int increment) { calls += increment; }, 2), MTS_SUCCESS);
    EXPECT_EQ(calls, 2);
}

TEST(CatchExceptions, KeepsTheExceptionInTheLastError) {
    auto status = details::catch_exceptions([] { throw CustomError(); });
    EXPECT_EQ(status, MTS_CALLBACK_ERROR);
    const char* message = nullptr;
    const char* origin = nullptr;
    void* data = nullptr;
    mts_last_error(&message, &origin, &data);
    EXPECT_STREQ(message, "custom failure");
    EXPECT_STREQ(origin, "C++ exception");
    EXPECT_NE(data, nullptr);
    EXPECT_THROW(details::check_status(status), CustomError);
}

TEST(CatchExceptions, NonStdExceptions) {
    auto status = details::catch_exceptions([] { throw 42; });
    EXPECT_EQ(status, MTS_CALLBACK_ERROR);
    const char* message = nullptr;
    mts_last_error(&message, nullptr, nullptr);
    EXPECT_STREQ(message, "C++ code threw an exception that was not a std::exception");
    EXPECT_THROW(details::check_status(status), int);
}

TEST(CatchExceptions, CallbackExceptionsReachTheCaller) {
    // the library calls dtype() of the values when making the block: the exception crosses
    // the C layer and comes back with its type
    EXPECT_THROW(TensorBlock(std::make_unique<ThrowingArray>(), Labels({"s"}, {{0}, {1}}), {},
        Labels({"p"}, {{0}, {1}})).dtype(), CustomError);
}
