// rg's names for Unicode classes turned into the engine's: rg matches names loosely (any case,
// spaces, "_" and "-" ignored, a leading "is" dropped: \p{greek}, \p{is_alpha}), JavaScript wants
// each exactly; a bare script name (\p{Greek}) is `Script=Greek` there. Also the POSIX classes.

import type { ClassExpr, Range } from './syntax.js';
import { DialectError } from './syntax.js';

/** General_Category values, long and short (ECMAScript's table). */
const GENERAL_CATEGORIES = (
  'C Cased_Letter Cc Cf Close_Punctuation Cn Co Combining_Mark Connector_Punctuation Control Cs ' +
  'Currency_Symbol Dash_Punctuation Decimal_Number Enclosing_Mark Final_Punctuation Format ' +
  'Initial_Punctuation L LC Letter Letter_Number Line_Separator Ll Lm Lo Lowercase_Letter Lt Lu M ' +
  'Mark Math_Symbol Mc Me Mn Modifier_Letter Modifier_Symbol N Nd Nl No Nonspacing_Mark Number ' +
  'Open_Punctuation Other Other_Letter Other_Number Other_Punctuation Other_Symbol P ' +
  'Paragraph_Separator Pc Pd Pe Pf Pi Po Private_Use Ps Punctuation S Sc Separator Sk Sm So ' +
  'Space_Separator Spacing_Mark Surrogate Symbol Titlecase_Letter Unassigned Uppercase_Letter Z Zl ' +
  'Zp Zs cntrl digit punct'
).split(' ');

/** Script values, long and short (ECMAScript's table; the engine may lack the newest). */
const SCRIPTS = (
  'Adlam Adlm Aghb Ahom Anatolian_Hieroglyphs Arab Arabic Armenian Armi Armn Avestan Avst Bali ' +
  'Balinese Bamu Bamum Bass Bassa_Vah Batak Batk Beng Bengali Bhaiksuki Bhks Bopo Bopomofo Brah ' +
  'Brahmi Brai Braille Bugi Buginese Buhd Buhid Cakm Canadian_Aboriginal Cans Cari Carian ' +
  'Caucasian_Albanian Chakma Cham Cher Cherokee Common Copt Coptic Cprt Cuneiform Cypriot Cyrillic ' +
  'Cyrl Deseret Deva Devanagari Dsrt Dupl Duployan Egyp Egyptian_Hieroglyphs Elba Elbasan Ethi ' +
  'Ethiopic Geor Georgian Glag Glagolitic Gonm Goth Gothic Gran Grantha Greek Grek Gujarati Gujr ' +
  'Gurmukhi Guru Han Hang Hangul Hani Hano Hanunoo Hatr Hatran Hebr Hebrew Hira Hiragana Hluw Hmng ' +
  'Hung Imperial_Aramaic Inherited Inscriptional_Pahlavi Inscriptional_Parthian Ital Java Javanese ' +
  'Kaithi Kali Kana Kannada Katakana Kayah_Li Khar Kharoshthi Khmer Khmr Khoj Khojki Khudawadi Knda ' +
  'Kthi Lana Lao Laoo Latin Latn Lepc Lepcha Limb Limbu Lina Linb Linear_A Linear_B Lisu Lyci ' +
  'Lycian Lydi Lydian Mahajani Mahj Malayalam Mand Mandaic Mani Manichaean Marc Marchen ' +
  'Masaram_Gondi Meetei_Mayek Mend Mende_Kikakui Merc Mero Meroitic_Cursive Meroitic_Hieroglyphs ' +
  'Miao Mlym Modi Mong Mongolian Mro Mroo Mtei Mult Multani Myanmar Mymr Nabataean Narb Nbat ' +
  'New_Tai_Lue Newa Nko Nkoo Nshu Nushu Ogam Ogham Ol_Chiki Olck Old_Hungarian Old_Italic ' +
  'Old_North_Arabian Old_Permic Old_Persian Old_South_Arabian Old_Turkic Oriya Orkh Orya Osage Osge ' +
  'Osma Osmanya Pahawh_Hmong Palm Palmyrene Pau_Cin_Hau Pauc Perm Phag Phags_Pa Phli Phlp Phnx ' +
  'Phoenician Plrd Prti Psalter_Pahlavi Qaac Qaai Rejang Rjng Runic Runr Samaritan Samr Sarb Saur ' +
  'Saurashtra Sgnw Sharada Shavian Shaw Shrd Sidd Siddham SignWriting Sind Sinh Sinhala Sora ' +
  'Sora_Sompeng Soyo Soyombo Sund Sundanese Sylo Syloti_Nagri Syrc Syriac Tagalog Tagb Tagbanwa ' +
  'Tai_Le Tai_Tham Tai_Viet Takr Takri Tale Talu Tamil Taml Tang Tangut Tavt Telu Telugu Tfng Tglg ' +
  'Thaa Thaana Thai Tibetan Tibt Tifinagh Tirh Tirhuta Ugar Ugaritic Vai Vaii Wara Warang_Citi Xpeo ' +
  'Xsux Yi Yiii Zanabazar_Square Zanb Zinh Zyyy Dogr Dogra Gong Gunjala_Gondi Hanifi_Rohingya Maka ' +
  'Makasar Medefaidrin Medf Old_Sogdian Rohg Sogd Sogdian Sogo Elym Elymaic Hmnp Nand Nandinagari ' +
  'Nyiakeng_Puachue_Hmong Wancho Wcho Chorasmian Chrs Diak Dives_Akuru Khitan_Small_Script Kits ' +
  'Yezi Yezidi Cpmn Cypro_Minoan Old_Uyghur Ougr Tangsa Tnsa Toto Vith Vithkuqi Berf Beria_Erfe ' +
  'Gara Garay Gukh Gurung_Khema Hrkt Jurc Jurchen Katakana_Or_Hiragana Kawi Kirat_Rai Krai ' +
  'Nag_Mundari Nagm Ol_Onal Onao Pcun Proto_Cuneiform Seal Sidetic Sidt Sunu Sunuwar Tai_Yo Tayo ' +
  'Todhri Todr Tolong_Siki Tols Tulu_Tigalari Tutg Unknown Zzzz'
).split(' ');

/** Binary properties, long and short (ECMAScript's table). */
const BINARY = (
  'AHex ASCII ASCII_Hex_Digit Alpha Alphabetic Any Assigned Bidi_C Bidi_Control Bidi_M ' +
  'Bidi_Mirrored CI CWCF CWCM CWKCF CWL CWT CWU Case_Ignorable Cased Changes_When_Casefolded ' +
  'Changes_When_Casemapped Changes_When_Lowercased Changes_When_NFKC_Casefolded ' +
  'Changes_When_Titlecased Changes_When_Uppercased DI Dash Default_Ignorable_Code_Point Dep ' +
  'Deprecated Dia Diacritic Emoji Emoji_Component Emoji_Modifier Emoji_Modifier_Base ' +
  'Emoji_Presentation Ext Extender Gr_Base Gr_Ext Grapheme_Base Grapheme_Extend Hex Hex_Digit IDC ' +
  'IDS IDSB IDST IDS_Binary_Operator IDS_Trinary_Operator ID_Continue ID_Start Ideo Ideographic ' +
  'Join_C Join_Control LOE Logical_Order_Exception Lower Lowercase Math NChar ' +
  'Noncharacter_Code_Point Pat_Syn Pat_WS Pattern_Syntax Pattern_White_Space QMark Quotation_Mark ' +
  'RI Radical Regional_Indicator SD STerm Sentence_Terminal Soft_Dotted Term Terminal_Punctuation ' +
  'UIdeo Unified_Ideograph Upper Uppercase VS Variation_Selector White_Space XIDC XIDS XID_Continue ' +
  'XID_Start space Extended_Pictographic EBase EComp EMod EPres ExtPict'
).split(' ');

/** rg's loose matching of a name (UAX44-LM3): case, spaces, "_" and "-" ignored, a leading "is" dropped. */
function loose(name: string): string {
  const n = name.replace(/[\s_-]+/g, '').toLowerCase();
  return n.startsWith('is') && n.length > 2 ? n.slice(2) : n;
}

let tables: { gc: Map<string, string>; sc: Map<string, string>; bin: Map<string, string> } | undefined;

function table(): NonNullable<typeof tables> {
  const of = (names: string[]) => new Map(names.map((n) => [loose(n), n]));
  tables ??= { gc: of(GENERAL_CATEGORIES), sc: of(SCRIPTS), bin: of(BINARY) };
  return tables;
}

/** Does this engine know `\p{body}`? (V8's tables lag the standard's newest scripts.) */
function known(body: string): boolean {
  try {
    new RegExp(`\\p{${body}}`, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * The class `\p{name}` (rg's spelling, without the braces) as the engine's property, or a
 * DialectError naming `written` when it has none. `\p{name=value}`, `\p{name:value}` and
 * `\p{name!=value}` take General_Category, Script and Script_Extensions.
 */
export function propertyClass(name: string, written: string): ClassExpr {
  const t = table();
  const m = /^([^=:!]*)(!?[=:])(.*)$/s.exec(name);
  let body: string | undefined;
  let neg = false;
  if (m === null) {
    const n = loose(name);
    // as in rg: "cf", "sc" and "lc" are the general categories, not the properties they also abbreviate
    const bin = n === 'cf' || n === 'sc' || n === 'lc' ? undefined : t.bin.get(n);
    const gc = t.gc.get(n);
    const sc = t.sc.get(n);
    body = bin ?? gc ?? (sc !== undefined ? `Script=${sc}` : undefined);
  } else {
    neg = m[2]!.startsWith('!');
    const prop = loose(m[1]!);
    const value = loose(m[3]!);
    if (prop === 'generalcategory' || prop === 'gc') body = t.gc.get(value);
    else if (prop === 'script' || prop === 'sc') body = t.sc.get(value) === undefined ? undefined : `Script=${t.sc.get(value)}`;
    else if (prop === 'scriptextensions' || prop === 'scx') body = t.sc.get(value) === undefined ? undefined : `Script_Extensions=${t.sc.get(value)}`;
    else throw new DialectError(`${written}: the property "${m[1]}" is not one this engine has (it takes General_Category, Script and Script_Extensions, and binary properties as \\p{Alphabetic}); ${ALTERNATIVE}`);
  }
  if (body === undefined || !known(body)) throw new DialectError(`${written}: no Unicode class of that name here (as \\p{Greek}, \\pL, \\p{Script=Latin}, \\p{Alphabetic}); ${ALTERNATIVE}`);
  return { k: 'prop', name: body, neg };
}

const ALTERNATIVE = 'escape the \\ (\\\\p) for the literal text';

/** The ASCII ranges of a POSIX class `[:name:]`, or undefined for a name that is none. */
export function posixClass(name: string): Range[] | undefined {
  return Object.hasOwn(POSIX, name) ? POSIX[name]!.map((r) => [...r] as Range) : undefined;
}

const POSIX: Record<string, Range[]> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};
