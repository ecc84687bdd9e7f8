#include <curl/curl.h>

// curl_easy_setopt is variadic, which Swift does
// not call: one typed wrapper per kind of argument.
static inline CURLcode zcurl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode zcurl_set_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode zcurl_set_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode zcurl_set_write(CURL *easy, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}
// The result of a finished transfer (CURLMsg's union).
static inline CURLcode zcurl_message_result(const CURLMsg *message) { return message->data.result; }
static inline CURLcode zcurl_set_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}
