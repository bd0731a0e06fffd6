/**
 * The illustration of the admin's empty states: an inline SVG (a parcel), so it
 * costs no request and nothing outside the app is loaded.
 */
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="226" height="160" viewBox="0 0 226 160"><rect width="226" height="160" fill="none"/><ellipse cx="113" cy="142" rx="78" ry="10" fill="#e3e3e3"/><path d="M53 54 113 28l60 26v62l-60 26-60-26z" fill="#f1e4d2" stroke="#8a6a43" stroke-width="3" stroke-linejoin="round"/><path d="M53 54l60 26 60-26M113 80v62" fill="none" stroke="#8a6a43" stroke-width="3" stroke-linejoin="round"/><path d="M83 41l60 26v20" fill="none" stroke="#c9a877" stroke-width="8"/><circle cx="178" cy="40" r="16" fill="#29845a"/><path d="M171 40l5 5 9-10" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

export const EMPTY_STATE_IMAGE = `data:image/svg+xml,${encodeURIComponent(svg)}`;
