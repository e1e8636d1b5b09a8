# syntax=docker/dockerfile:1
# The production image: `docker compose up` (compose.yaml) runs Redis, web and worker from it.
# Build stage: dev dependencies (esbuild) to produce dist/ as `npm run build` does: the code, the
# catalogs and Lua scripts beside it, and the pay page's bundle (tsc alone copied no Lua script).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
RUN node scripts/build.mjs

# Runtime stage: production dependencies and the built dist only, run as a non-root user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: nothing at run time needs a native build (msgpackr falls back to plain JS).
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
# DATA_DIR (the embedded Redis of `swapbot start`) must be writable by the app user.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
# /health answers 200 once Redis answers (and, on web, every adapter is up); both processes serve it.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "dist/cli.js"]
CMD ["web"]
