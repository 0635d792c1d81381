-- placements_owner_order_idx (owner, program, level, id) serves every read by a matrix, its cycles
-- included (src/core/matrixView.ts): this one was written on every placement and read by nothing.
DROP INDEX "placements_owner_idx";
