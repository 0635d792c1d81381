import { ACCOUNT } from "./account";
import { ADMIN } from "./admin";
import { AUTH } from "./auth";
import { MEMBER } from "./member";
import { PUBLIC } from "./public";
import { SESSION } from "./session";

/**
 * Every endpoint under /api, by name: the server registers its routes from this table and the
 * API tests check every answer against it. The client imports the area it needs
 * (./session.ts, ./member.ts...), never this file, so each page carries only its own schemas.
 */
export const API = { ...SESSION, ...AUTH, ...ACCOUNT, ...PUBLIC, ...MEMBER, ...ADMIN } as const;

export type ApiName = keyof typeof API;
export type ApiEndpoint = (typeof API)[ApiName];

export * from "./wire";
export * from "./session";
export * from "./auth";
export * from "./account";
export * from "./public";
export * from "./member";
export * from "./admin";
