# Build: compile TypeScript with the dev dependencies, then keep only what runs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# npm ci runs the prepare script, which compiles src/ into dist/.
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY app.yml ./
COPY fixtures/demo ./fixtures/demo
USER node
EXPOSE 3000
# APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET come from the environment.
CMD ["node", "node_modules/probot/bin/probot.js", "run", "./dist/github/app.js"]
