# Build with the official Swift image, run on a slim Debian with only the runtime libraries.
FROM swift:6.1-bookworm AS build
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      pkg-config libssl-dev libsqlite3-dev libcurl4-openssl-dev libvips-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product fednode --static-swift-stdlib \
 && cp "$(swift build -c release --show-bin-path)/fednode" /usr/local/bin/fednode

FROM debian:bookworm-slim
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      ca-certificates libssl3 libsqlite3-0 libcurl4 libvips42 curl && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --home-dir /var/lib/fednode fednode
COPY --from=build /usr/local/bin/fednode /usr/local/bin/fednode
USER fednode
WORKDIR /var/lib/fednode
ENV FEDNODE_HOST=0.0.0.0 FEDNODE_PORT=8080 FEDNODE_DATA_DIR=/var/lib/fednode/data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["fednode"]
CMD ["serve"]
