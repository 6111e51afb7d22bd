# The CTF site as a container image: `docker-compose up` (compose.yaml) or
#   docker build -t ctf-platform . && docker run -p 127.0.0.1:3000:3000 -v ctf-data:/data ctf-platform
# See docs/deploy.md. BASE is any Debian bookworm image with Node 22 or 24 (and npm) in /usr/local;
# CI builds on a local Node 24 one (scripts/docker/build-base-image.sh) since no registry is
# reachable there.
ARG BASE=node:24-bookworm-slim

# ---- build: the whole toolchain, every workspace's dependencies, the production build ----
FROM ${BASE} AS build
# Nothing is compiled: better-sqlite3 ships its Node-API binaries inside the npm package.
WORKDIR /app
# The manifests first: this layer (npm ci, the slow part) is rebuilt only when they change.
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && node scripts/docker/copy-runtime-modules.mjs /app /runtime

# ---- runtime: Node, the bundled server, the built web app, the sample challenges, and the few
# packages loaded at run time ----
FROM ${BASE}
WORKDIR /app
# A fixed id, so a volume or bind mount can be prepared for it (chown 10001 DIR).
RUN groupadd --system --gid 10001 ctf \
 && useradd --system --uid 10001 --gid ctf --home-dir /app --no-create-home --shell /usr/sbin/nologin ctf \
 && mkdir /data && chown ctf:ctf /data
COPY --from=build /runtime/ ./
COPY --from=build /app/server/dist/ ./server/dist/
COPY --from=build /app/web/dist/ ./web/dist/
# The server's renderer of the pages' first views (web/src/entry-server.tsx, every package bundled in).
COPY --from=build /app/web/dist-ssr/ ./web/dist-ssr/
# The set-up checklist's "Add the sample challenges" imports these.
COPY --from=build /app/docs/sample-challenges/ ./docs/sample-challenges/
# Every other setting is read from the environment, or from /app/.env when one is mounted there
# (the environment wins); see .env.example.
# NODE_ENV=production (with HOST=0.0.0.0) keeps the local trial sign-in off in the image: the first
# admin comes from an OAuth sign-in named in ADMINS (docs/deploy.md).
# MALLOC_ARENA_MAX=2: as `npm start` runs the server (e2e/support/server.ts, SERVER_ENV).
ENV HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    NODE_ENV=production \
    MALLOC_ARENA_MAX=2
VOLUME /data
EXPOSE 3000
USER ctf
# 200 while the database answers (503 otherwise); Node's fetch, as the image has no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The server closes gracefully on SIGTERM (requests in flight finish, the database is closed) and
# handles it itself as PID 1. The Node flags are `npm start`'s (docs/deploy.md explains them).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=25", "server/dist/server.js"]
