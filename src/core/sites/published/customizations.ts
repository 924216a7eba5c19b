import * as v from 'valibot';
import type { SiteRecord } from '../../records.js';

/**
 * The customizations of a published site. No endpoint of the specification changes them, so every site
 * has the documented defaults (docs/api-notes.md, "Sites"), with its own title: the public API's default
 * theme and colors, rounded corners, the Inter font, English.
 */

/** The default fonts of the public API's customization settings. */
const FONTS = ['ABCFavorit', 'Inter', 'Roboto', 'RobotoSlab', 'OpenSans', 'SourceSansPro', 'Lato', 'Ubuntu', 'Raleway', 'Merriweather', 'Overpass', 'NotoSans', 'IBMPlexSerif', 'Poppins', 'FiraSans'] as const;

const Color = v.pipe(v.string(), v.regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/));
const ThemedColor = v.object({ light: Color, dark: Color });

/** The customizations object of a published site. */
export const CustomizationsSchema = v.object({
  site: v.object({
    title: v.string(),
    styling: v.object({
      theme: v.picklist(['clean', 'muted', 'bold', 'gradient']),
      primaryColor: ThemedColor,
      tint: v.object({ color: ThemedColor }),
      infoColor: ThemedColor,
      successColor: ThemedColor,
      warningColor: ThemedColor,
      dangerColor: ThemedColor,
      corners: v.picklist(['straight', 'rounded', 'circular']),
      links: v.picklist(['default', 'accent']),
      font: v.picklist(FONTS),
      icons: v.picklist(['regular', 'solid', 'duotone', 'light', 'thin']),
      sidebar: v.object({ background: v.picklist(['default', 'filled']), list: v.picklist(['default', 'pill', 'line']) }),
      search: v.picklist(['prominent', 'subtle']),
    }),
    internationalization: v.object({ locale: v.picklist(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru']) }),
    favicon: v.object({}),
  }),
});

const both = (color: string) => ({ light: color, dark: color });

/** The default styling of every site. */
export const DEFAULT_STYLING = {
  theme: 'clean',
  primaryColor: both('#346DDB'),
  tint: { color: both('#346DDB') },
  infoColor: both('#787878'),
  successColor: both('#00C950'),
  warningColor: both('#FE9A00'),
  dangerColor: both('#FB2C36'),
  corners: 'rounded',
  links: 'default',
  font: 'Inter',
  icons: 'regular',
  sidebar: { background: 'default', list: 'default' },
  search: 'prominent',
} as const;

/** The customizations of a site: the defaults, titled after the site; no custom favicon. */
export function customizationsOf(site: SiteRecord): v.InferInput<typeof CustomizationsSchema> {
  return {
    site: {
      title: site.title,
      styling: structuredClone(DEFAULT_STYLING) as v.InferInput<typeof CustomizationsSchema>['site']['styling'],
      internationalization: { locale: 'en' },
      favicon: {},
    },
  };
}
