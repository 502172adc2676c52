# gpu-justify: the GitHub App (and the CLI) in a small image.
# scripts/docker-steps.sh replays these steps without Docker; keep the two in step (the test runs it).

# Build: compile TypeScript with the dev dependencies; only dist/ leaves this stage.
FROM node:24.22.3-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# npm ci runs the prepare script, which compiles src/ into dist/.
RUN npm ci --no-audit --no-fund

# Run: production dependencies only, owned by root and read-only to the user that runs them.
FROM node:24.22.3-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY app.yml ./
COPY fixtures/demo ./fixtures/demo
# The image's `node` user, by number so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 3000
# Probot answers GET /ping with PONG; the slim image has no curl, so node's fetch checks it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/ping', { signal: AbortSignal.timeout(4000) }).then(async (r) => process.exit(r.ok && (await r.text()) === 'PONG' ? 0 : 1), () => process.exit(1))"]
# APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET come from the environment;
# `docker run IMAGE node bin/gpu-justify.js demo` runs the CLI instead.
CMD ["node", "dist/github/app/server.js"]
