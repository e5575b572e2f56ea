// Hand-written: metatensor::Error, and the two directions in which errors cross the C layer:
// statuses and NULL results become exceptions (check_status, check_pointer), and exceptions
// thrown by C++ callbacks become a status with the exception kept as last-error data
// (catch_exceptions), to be rethrown unchanged by the check on the caller's side.
#pragma once

#include <cstdio>
#include <cstring>

#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include <metatensor.h>

namespace metatensor {

/// The exception thrown for every error reported by metatensor.
class Error: public std::runtime_error {
public:
    /// An error with the given message.
    Error(const std::string& message): std::runtime_error(message) {}
};

namespace details {

/// The origin under which catch_exceptions stores a C++ exception in the last error.
constexpr const char* CXX_EXCEPTION_ORIGIN = "C++ exception";

/// Throws the last error of this thread: the C++ exception it carries when a C++ callback
/// failed, a metatensor::Error with its message otherwise.
[[noreturn]] inline void throw_last_error() {
    const char* message = nullptr;
    const char* origin = nullptr;
    void* data = nullptr;
    mts_last_error(&message, &origin, &data);
    if (origin != nullptr && data != nullptr && std::strcmp(origin, CXX_EXCEPTION_ORIGIN) == 0) {
        std::rethrow_exception(*static_cast<std::exception_ptr*>(data));
    }
    throw Error(message == nullptr ? "unknown error" : message);
}

/// Throws when a C call returned an error status.
inline void check_status(mts_status_t status) {
    if (status != MTS_SUCCESS) {
        throw_last_error();
    }
}

/// Throws when a C call that makes an object returned NULL.
inline void check_pointer(const void* pointer) {
    if (pointer == nullptr) {
        throw_last_error();
    }
}

/// Runs function(args...) inside a C callback: an exception must not unwind through C, so it
/// is kept in the last error (origin "C++ exception", the std::exception_ptr as data) and the
/// callback returns MTS_CALLBACK_ERROR; check_status rethrows it on the caller's side.
template<typename Function, typename ...Args>
inline mts_status_t catch_exceptions(Function function, Args ...args) {
    try {
        function(std::move(args)...);
        return MTS_SUCCESS;
    } catch (...) {
        auto* exception = new std::exception_ptr(std::current_exception());
        const char* message = "C++ code threw an exception that was not a std::exception";
        try {
            std::rethrow_exception(*exception);
        } catch (const std::exception& e) {
            message = e.what();
        } catch (...) {}

        auto status = mts_set_last_error(message, CXX_EXCEPTION_ORIGIN, exception, [](void* data) {
            delete static_cast<std::exception_ptr*>(data);
        });
        if (status != MTS_SUCCESS) {
            // nowhere else to report it: say it, and drop the exception
            std::fprintf(stderr, "metatensor: could not keep the error of a C++ callback (status %d): %s\n", status, message);
            delete exception;
        }
        return MTS_CALLBACK_ERROR;
    }
}

} // namespace details
} // namespace metatensor
