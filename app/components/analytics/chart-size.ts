/** Height of each weekly chart and of its placeholder: the same box before and after loading, so nothing shifts. */
export const CHART_HEIGHT = 240;
