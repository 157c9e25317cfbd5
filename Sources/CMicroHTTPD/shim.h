// GNU libmicrohttpd from the system (Debian: libmicrohttpd-dev), and what Swift cannot call
// of it directly: MHD_start_daemon is variadic, so its options are passed here as fixed
// arguments, and the connection information is a union read here.
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// Starts a daemon bound to `address` with a connection limit, an idle timeout in seconds,
/// a memory limit per connection, a completion callback and a connection callback (both
/// given the same context as the request handler). NULL on failure (errno says why).
static inline struct MHD_Daemon *waymark_mhd_start(
    unsigned int flags, const struct sockaddr *address, MHD_AccessHandlerCallback handler,
    MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback connections, void *context,
    unsigned int connection_limit, unsigned int timeout_seconds, size_t memory_limit) {
  return MHD_start_daemon(
      flags, 0, NULL, NULL, handler, context,
      MHD_OPTION_SOCK_ADDR, address,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
      MHD_OPTION_NOTIFY_COMPLETED, completed, context,
      MHD_OPTION_NOTIFY_CONNECTION, connections, context,
      MHD_OPTION_END);
}

/// The port a daemon listens on (0 if unknown).
static inline uint16_t waymark_mhd_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info ? info->port : 0;
}

/// The port of the daemon a connection came to (0 if unknown).
static inline uint16_t waymark_mhd_connection_port(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_DAEMON);
  return info && info->daemon ? waymark_mhd_port(info->daemon) : 0;
}

/// A connection's socket (-1 if unknown).
static inline int waymark_mhd_connection_socket(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info ? info->connect_fd : -1;
}
