# The FedNode image, in two ways to get the binary:
#
# - default (last stage, `runtime`): built here with the official Swift image, for machines
#   where a registry is reachable:  docker compose up --build
# - `prebuilt`: takes a `fednode` built on the host (`swift build -c release --product fednode`,
#   copied to .compose/fednode, with the Swift runtime libraries it links in .compose/swift-lib)
#   and a base image made locally, so no registry is needed; scripts/compose-testnet builds it
#   that way with podman.
#
# BASE_IMAGE must be the same Debian release as the machine that built a prebuilt binary
# (bookworm here). A base that already has the runtime libraries (the debootstrap base of
# scripts/compose-testnet) skips apt.
ARG BASE_IMAGE=debian:bookworm-slim
ARG SWIFT_IMAGE=swift:6.1-bookworm

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      pkg-config libssl-dev libsqlite3-dev libcurl4-openssl-dev libvips-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product fednode --static-swift-stdlib \
 && cp "$(swift build -c release --show-bin-path)/fednode" /usr/local/bin/fednode

FROM ${BASE_IMAGE} AS base
# The data directory exists in the image and belongs to the node's user, so a fresh named
# volume mounted on it (which copies the image's ownership) is writable.
RUN if ! dpkg-query -W -f='${Status}' libvips42 2>/dev/null | grep -q "ok installed"; then \
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        ca-certificates libssl3 libsqlite3-0 libcurl4 libvips42 curl && rm -rf /var/lib/apt/lists/*; \
    fi \
 && (id fednode >/dev/null 2>&1 || useradd --system --create-home --home-dir /var/lib/fednode fednode) \
 && mkdir -p /var/lib/fednode/data && chown -R fednode:fednode /var/lib/fednode
WORKDIR /var/lib/fednode
ENV FEDNODE_HOST=0.0.0.0 FEDNODE_PORT=8080 FEDNODE_DATA_DIR=/var/lib/fednode/data
EXPOSE 8080
VOLUME ["/var/lib/fednode/data"]
HEALTHCHECK --interval=10s --timeout=3s CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["fednode"]
CMD ["serve"]

FROM base AS prebuilt
COPY .compose/swift-lib/ /usr/local/lib/fednode/
COPY .compose/fednode /usr/local/bin/fednode
ENV LD_LIBRARY_PATH=/usr/local/lib/fednode
USER fednode

FROM base AS runtime
COPY --from=build /usr/local/bin/fednode /usr/local/bin/fednode
USER fednode
