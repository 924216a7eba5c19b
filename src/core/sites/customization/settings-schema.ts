import * as v from 'valibot';
import { HttpUrl, Timestamp } from '../../schemas.js';
import { Emoji } from '../../spaces/schemas.js';
import { TRANSLATION_LANGUAGES } from '../../translations/schemas.js';
import { sized, SiteTitle } from '../schemas.js';

/**
 * The customization settings of a site, as the public API's SiteCustomizationSettings: the fields, enums,
 * limits and required fields of its schema. A URL a browser loads or follows (logos, favicon, fonts,
 * links) must be http(s) (HttpUrl), a little stricter than the public API's `format: uri`.
 */

/** The fonts the public API provides (CustomizationDefaultFont). */
export const FONTS = ['ABCFavorit', 'Inter', 'Roboto', 'RobotoSlab', 'OpenSans', 'SourceSansPro', 'Lato', 'Ubuntu', 'Raleway', 'Merriweather', 'Overpass', 'NotoSans', 'IBMPlexSerif', 'Poppins', 'FiraSans'] as const;

/** The monospace fonts the public API provides (CustomizationDefaultMonospaceFont). */
export const MONOSPACE_FONTS = ['FiraCode', 'IBMPlexMono', 'JetBrainsMono', 'SourceCodePro', 'RobotoMono', 'SpaceMono', 'DMMono', 'Inconsolata'] as const;

/** The locales of a site's interface (CustomizationLocale). */
export const LOCALES = ['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru'] as const;

/** A site's locale. */
export type Locale = (typeof LOCALES)[number];

const CODE_THEMES = [
  'default-light', 'default-dark', 'monochrome-light', 'monochrome-dark', 'andromeeda', 'aurora-x', 'ayu-dark', 'catppuccin-frappe', 'catppuccin-latte',
  'catppuccin-macchiato', 'catppuccin-mocha', 'dark-plus', 'dracula', 'dracula-soft', 'everforest-dark', 'everforest-light', 'github-dark',
  'github-dark-default', 'github-dark-dimmed', 'github-dark-high-contrast', 'github-light', 'github-light-default', 'github-light-high-contrast',
  'gruvbox-dark-hard', 'gruvbox-dark-medium', 'gruvbox-dark-soft', 'gruvbox-light-hard', 'gruvbox-light-medium', 'gruvbox-light-soft', 'houston',
  'kanagawa-dragon', 'kanagawa-lotus', 'kanagawa-wave', 'laserwave', 'light-plus', 'material-theme', 'material-theme-darker', 'material-theme-lighter',
  'material-theme-ocean', 'material-theme-palenight', 'min-dark', 'min-light', 'monokai', 'night-owl', 'nord', 'one-dark-pro', 'one-light', 'plastic',
  'poimandres', 'red', 'rose-pine', 'rose-pine-dawn', 'rose-pine-moon', 'slack-dark', 'slack-ochin', 'snazzy-light', 'solarized-dark', 'solarized-light',
  'synthwave-84', 'tokyo-night', 'vesper', 'vitesse-black', 'vitesse-dark', 'vitesse-light',
] as const;

const SOCIAL_PLATFORMS = ['twitter', 'instagram', 'facebook', 'linkedin', 'github', 'discord', 'slack', 'youtube', 'tiktok', 'reddit', 'bluesky', 'mastodon', 'threads', 'medium'] as const;

const Color = v.pipe(v.string(), v.regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'must be a color such as #346DDB or #36D'));
const ThemedColor = v.object({ light: Color, dark: Color });
const ThemedUrl = v.object({ light: HttpUrl, dark: HttpUrl });

/** Text by locale: overrides for the languages other than the site's. */
const localized = (max?: number) => v.record(v.picklist(TRANSLATION_LANGUAGES), max === undefined ? v.string() : sized(0, max));

/** A font of the site's own (CustomizationFontDefinitionInput): its family and where its files are. */
const FontDefinition = v.object({
  id: v.string(),
  custom: v.boolean(),
  fontFamily: sized(1, 50),
  fontFaces: v.pipe(
    v.array(
      v.object({
        weight: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be 1 to 1000'), v.maxValue(1000, 'must be 1 to 1000')),
        sources: v.pipe(v.array(v.object({ url: HttpUrl, format: v.optional(v.picklist(['woff2', 'woff'])) })), v.minLength(1, 'must have at least one source')),
      }),
    ),
    v.minLength(1, 'must have at least one font face'),
  ),
});

/** What a link of the site leads to (the public API's ContentRef). */
export const ContentRefInput = v.variant('kind', [
  v.object({ kind: v.literal('file'), file: v.string(), space: v.optional(v.string()) }),
  v.object({ kind: v.literal('url'), url: v.string() }),
  v.object({ kind: v.literal('page'), page: v.string(), space: v.optional(v.string()) }),
  v.object({ kind: v.literal('anchor'), anchor: v.string(), space: v.optional(v.string()), page: v.optional(v.string()) }),
  v.object({ kind: v.literal('user'), user: v.string() }),
  v.object({ kind: v.literal('collection'), collection: v.string() }),
  v.object({ kind: v.literal('space'), space: v.string() }),
  v.object({ kind: v.literal('reusable-content'), reusableContent: v.string(), space: v.optional(v.string()) }),
  v.object({ kind: v.literal('tag'), tag: v.string(), space: v.optional(v.string()) }),
  v.object({ kind: v.literal('openapi'), spec: v.string() }),
]);

/** A link of the header's menus and of the footer: a title and where it leads. */
const ContentLink = v.object({ title: sized(0, 64), localizedTitle: v.optional(localized(64)), to: ContentRefInput });

const Styling = v.object({
  theme: v.picklist(['clean', 'muted', 'bold', 'gradient']),
  primaryColor: ThemedColor,
  tint: v.optional(v.object({ color: ThemedColor })),
  infoColor: ThemedColor,
  successColor: ThemedColor,
  warningColor: ThemedColor,
  dangerColor: ThemedColor,
  corners: v.picklist(['straight', 'rounded', 'circular']),
  depth: v.picklist(['subtle', 'flat']),
  links: v.picklist(['default', 'accent']),
  font: v.union([v.picklist(FONTS), FontDefinition]),
  headingFont: v.optional(v.nullable(v.union([v.picklist(FONTS), FontDefinition]))),
  monospaceFont: v.union([v.picklist(MONOSPACE_FONTS), FontDefinition]),
  background: v.picklist(['plain', 'match']),
  icons: v.picklist(['regular', 'solid', 'duotone', 'light', 'thin']),
  codeTheme: v.object({
    default: v.object({ light: v.picklist(CODE_THEMES), dark: v.picklist(CODE_THEMES) }),
    openapi: v.object({ light: v.picklist(CODE_THEMES), dark: v.picklist(CODE_THEMES) }),
  }),
  sidebar: v.object({ background: v.picklist(['default', 'filled']), list: v.picklist(['default', 'pill', 'line']) }),
  search: v.picklist(['prominent', 'subtle']),
});

const HeaderItem = v.object({
  title: v.string(),
  localizedTitle: v.optional(localized()),
  style: v.optional(v.picklist(['link', 'button-primary', 'button-secondary'])),
  to: v.nullable(ContentRefInput),
  links: v.array(ContentLink),
  /** Shown only to visitors for whom it holds (an adaptive condition, sites/adaptive/evaluate.ts). */
  condition: v.optional(sized(0, 1024)),
});

const Toggle = v.object({ enabled: v.boolean() });

/** The entries of the settings a request gives (SiteCustomizationSettingsBase). */
const settingsEntries = {
  title: v.optional(SiteTitle),
  localizedTitle: v.optional(localized(128)),
  styling: Styling,
  internationalization: v.object({ locale: v.picklist(LOCALES) }),
  favicon: v.union([v.object({ icon: ThemedUrl }), v.object({ emoji: v.pipe(Emoji, v.minLength(1, 'must not be empty')) }), v.strictObject({})], 'must be {icon: {light, dark}}, {emoji} or {}'),
  header: v.object({
    preset: v.picklist(['default', 'bold', 'contrast', 'custom', 'none']),
    logo: v.optional(ThemedUrl),
    primaryLink: v.optional(ContentRefInput),
    backgroundColor: v.optional(ThemedColor),
    linkColor: v.optional(ThemedColor),
    links: v.array(HeaderItem),
  }),
  footer: v.object({ logo: v.optional(ThemedUrl), groups: v.array(v.object({ title: v.string(), localizedTitle: v.optional(localized()), links: v.array(ContentLink) })), copyright: v.optional(sized(0, 512)) }),
  announcement: v.optional(
    v.object({
      enabled: v.boolean(),
      message: sized(2, 128),
      localizedMessage: v.optional(localized(128)),
      link: v.optional(ContentLink),
      style: v.picklist(['info', 'warning', 'danger', 'success']),
    }),
  ),
  themes: v.object({ default: v.picklist(['light', 'dark', 'system']), toggeable: v.boolean() }),
  feedback: Toggle,
  ai: v.object({
    mode: v.picklist(['none', 'search', 'assistant']),
    greeting: v.optional(sized(0, 256)),
    localizedGreeting: v.optional(localized(128)),
    suggestions: v.optional(v.pipe(v.array(sized(3, 64)), v.maxLength(5, 'must have at most 5 questions'))),
    instructions: v.optional(sized(0, 10000)),
  }),
  advancedCustomization: Toggle,
  pageActions: v.object({ items: v.array(v.picklist(['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'])) }),
  externalLinks: v.object({ target: v.picklist(['self', 'blank']) }),
  pagination: Toggle,
  trademark: Toggle,
  privacyPolicy: v.object({ url: v.optional(HttpUrl) }),
  socialPreview: v.object({ url: v.optional(HttpUrl) }),
  socialAccounts: v.pipe(
    v.array(v.object({ platform: v.picklist(SOCIAL_PLATFORMS), handle: sized(1, 128), display: v.object({ footer: v.boolean(), header: v.boolean() }) })),
    v.maxLength(10, 'must have at most 10 accounts'),
  ),
  insights: v.object({ trackingCookie: v.boolean() }),
};

/** The customization settings a request sets (SiteCustomizationSettingsInput): the whole of them. */
export const CustomizationSettingsInput = v.object(settingsEntries);

/** The customization settings of responses (SiteCustomizationSettings): `updatedAt` once they were set. */
export const CustomizationSettingsSchema = v.object({ ...settingsEntries, updatedAt: v.optional(Timestamp) });

/** A site's customization settings. */
export type CustomizationSettings = v.InferOutput<typeof CustomizationSettingsInput>;

/** What a link of the settings leads to. */
export type ContentRefValue = v.InferOutput<typeof ContentRefInput>;

