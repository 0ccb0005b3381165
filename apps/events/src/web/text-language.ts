/**
 * @module
 * The language of a piece of event text, for its `lang` attribute: the page
 * is English, and an organiser's Chinese title, venue or summary must be
 * marked so screen readers pronounce it and fonts render it as Chinese
 * (WCAG 2.2, 3.1.2 Language of Parts).
 */

const HAN = /\p{Script=Han}/u;

/**
 * `"zh-Hant"` when the text has Han characters (the site's events are in
 * Taiwan, written in Traditional Chinese), otherwise undefined (the page's
 * own English applies).
 *
 * @example textLang('社群聚會') // 'zh-Hant'
 */
export function textLang(text: string): 'zh-Hant' | undefined {
  return HAN.test(text) ? 'zh-Hant' : undefined;
}
