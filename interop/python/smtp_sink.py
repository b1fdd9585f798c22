"""A real SMTP server on loopback (aiosmtpd) that keeps every message it receives.

    smtp_sink.py PORT DIRECTORY

Each message is written to DIRECTORY/<n>.eml (the raw message as received, envelope sender and
recipients in X-Envelope-* headers first) once the SMTP transaction completes. "ready" is
printed when the server listens.
"""
import os
import signal
import sys
import threading

from aiosmtpd.controller import Controller


class Keeper:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        path = os.path.join(self.directory, f"{self.count:04d}.eml")
        head = f"X-Envelope-From: {envelope.mail_from}\r\nX-Envelope-To: {', '.join(envelope.rcpt_tos)}\r\n".encode()
        with open(path + ".part", "wb") as handle:
            handle.write(head + envelope.original_content)
        os.rename(path + ".part", path)
        return "250 Message accepted for delivery"


def main():
    # The test process may start us with SIGTERM blocked (an inherited signal mask): unblock it,
    # so that terminating the sink ends it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    port, directory = int(sys.argv[1]), sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    controller = Controller(Keeper(directory), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
