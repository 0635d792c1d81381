import { createStore } from "jotai";
import { atomWithStorage, createJSONStorage } from "jotai/utils";

/**
 * The token lives in a jotai atom persisted to localStorage under "token" (stored as the raw
 * string, so other tabs and older clients read the same value).
 */
const rawStringStorage = createJSONStorage<string | null>(() => localStorage);
const tokenStorage = {
  ...rawStringStorage,
  getItem: (key: string, initial: string | null) => {
    if (typeof localStorage === "undefined") return initial;
    return localStorage.getItem(key) ?? initial;
  },
  setItem: (key: string, value: string | null) => {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  },
  removeItem: (key: string) => localStorage.removeItem(key),
};

export const tokenAtom = atomWithStorage<string | null>("token", null, tokenStorage, { getOnInit: true });

/** One store for the whole client, so the API client can read and clear the token outside React. */
export const store = createStore();

export const getToken = () => store.get(tokenAtom);
export const setToken = (token: string | null) => store.set(tokenAtom, token);
