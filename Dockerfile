# syntax=docker/dockerfile:1
# Posthorn's container image (docs/deploy.md, "Docker"). Two stages: the first installs every
# dependency and compiles the server (dist/) and the dashboard (web/dist/); the second keeps only
# what runs, on the slim image of the current Node.js LTS, as an unprivileged user.

ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
# better-sqlite3 builds from source when no prebuilt binary matches the platform.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# Dependencies first, in their own layer, so a source change does not reinstall them.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild --no-audit --no-fund
COPY . .
RUN npm run build && npm run build:web && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
# A bounded heap makes V8 collect sooner, a fixed mmap threshold returns large buffers to the
# system when freed, and transparent huge pages for those mappings make filling a fresh one cheap
# (docs/security.md, "Memory"); deploy/posthorn.service sets the same.
ENV NODE_ENV=production \
  NODE_OPTIONS=--max-old-space-size=1024 \
  MALLOC_MMAP_THRESHOLD_=1048576 \
  GLIBC_TUNABLES=glibc.malloc.hugetlb=1 \
  POSTHORN_SANDBOX=0 \
  POSTHORN_DATA_DIR=/var/lib/posthorn \
  POSTHORN_LISTEN_HOST=0.0.0.0
WORKDIR /opt/posthorn
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/bin ./bin
COPY --from=build /src/dist ./dist
COPY --from=build /src/web/dist ./web/dist
COPY --from=build /src/node_modules ./node_modules
# The data directory (SQLite, a generated certificate) belongs to the unprivileged `node` user of
# the base image; Posthorn keeps it 0700 (docs/security.md).
RUN mkdir -p /var/lib/posthorn && chown node:node /var/lib/posthorn && chmod 0700 /var/lib/posthorn \
  && ln -s /opt/posthorn/bin/posthorn.js /usr/local/bin/posthorn
USER node
VOLUME ["/var/lib/posthorn"]
# 8443 HTTPS API and dashboard, 587 and 465 the SMTP relay, 25 the inbound MX for bounces and
# complaints (docs/security.md, "Ports").
EXPOSE 8443 587 465 25
# Readiness of whatever roles the container runs: /readyz on the metrics listener (plain HTTP,
# 127.0.0.1:9464 by default, docs/observability.md), which answers 200 once every role serves and
# the database answers with its migrations current. With POSTHORN_METRICS_TOKEN set, the check
# sends it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const t=process.env.POSTHORN_METRICS_TOKEN;require('node:http').get({host:'127.0.0.1',port:process.env.POSTHORN_METRICS_PORT||9464,path:'/readyz',headers:t?{authorization:'Bearer '+t}:{}},r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1))"]
ENTRYPOINT ["posthorn"]
CMD ["serve"]
