#ifndef FEDNODE_CCURL_SHIM_H
#define FEDNODE_CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic; Swift cannot call
// variadic C functions, so each argument type gets a typed wrapper here.
static inline CURLcode fednode_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode fednode_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode fednode_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode fednode_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode fednode_easy_setopt_off_t(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
typedef size_t (*fednode_write_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);
static inline CURLcode fednode_easy_setopt_write_callback(CURL *h, CURLoption o, fednode_write_callback cb) { return curl_easy_setopt(h, o, cb); }
typedef int (*fednode_sockopt_callback)(void *clientp, curl_socket_t fd, curlsocktype purpose);
static inline CURLcode fednode_easy_setopt_sockopt_callback(CURL *h, fednode_sockopt_callback cb) { return curl_easy_setopt(h, CURLOPT_SOCKOPTFUNCTION, cb); }
typedef curl_socket_t (*fednode_opensocket_callback)(void *clientp, curlsocktype purpose, struct curl_sockaddr *address);
static inline CURLcode fednode_easy_setopt_opensocket_callback(CURL *h, fednode_opensocket_callback cb) { return curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, cb); }
typedef int (*fednode_prereq_callback)(void *clientp, char *primary_ip, char *local_ip, int primary_port, int local_port);
static inline CURLcode fednode_easy_setopt_prereq_callback(CURL *h, fednode_prereq_callback cb) { return curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, cb); }
static inline CURLcode fednode_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode fednode_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode fednode_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode fednode_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
// The peer address inside a curl_sockaddr (for the SSRF check in the open-socket callback); libcurl
// allocates it large enough for the address family, sockaddr_in6 included.
static inline const void *fednode_curl_sockaddr_address(const struct curl_sockaddr *a) { return &a->addr; }
#endif
