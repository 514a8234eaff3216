/*
 * Small helpers of the judge's page: texts with placeholders, durations the judge types,
 * instants, counts typed in a field, a capture's id, the CSRF token.
 */

// Where this file was loaded from (hashed in production): the service worker keeps it.
export const address = import.meta.url;

export function fill(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
}

// A counted message: its form for one or for more (the server sends both), filled in.
export function counted(forms, count, values) {
  return fill(count === 1 ? forms.one : forms.other, { count, ...values });
}

export function parseDuration(text) {
  const match = /^\s*(\d+):([0-5]\d):([0-5]\d)\s*$/.exec(text || "");
  if (!match) return null;
  return ((Number(match[1]) * 60 + Number(match[2])) * 60 + Number(match[3])) * 1000;
}

export function iso(ms) {
  return new Date(ms).toISOString();
}

export function intOrNull(value) {
  if (value === "" || value === null || value === undefined) return null;
  const number = Number(value);
  return Number.isInteger(number) && number >= 0 ? number : NaN;
}

export function uuid4(crypto = globalThis.crypto) {
  if (crypto && typeof crypto.randomUUID === "function") {
    return crypto.randomUUID();
  }
  // randomUUID needs a secure context; a venue's server on plain http has none.
  const bytes = new Uint8Array(16);
  if (crypto && crypto.getRandomValues) {
    crypto.getRandomValues(bytes);
  } else {
    for (let i = 0; i < 16; i += 1) bytes[i] = Math.floor(Math.random() * 256);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
}

export function csrfToken(document) {
  const cookie = document.cookie
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  try {
    return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch (error) {
    return "";
  }
}
