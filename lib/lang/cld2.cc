/* lib/lang/cld2.cc - the one C++ file: CLD2's API is C++ only. It exposes
 * one C function to lang.c and lets nothing escape (no exception crosses
 * into C). */
#include <cstdio> /* compact_lang_det.h uses FILE without including it */

#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>

namespace CLD2 {
const char *LanguageCode(Language lang); /* lang_script.h, not installed publicly */
}

/* plain: 0 for HTML (tags, <script> and <style> skipped, entities read). */
extern "C" int fr_lang_cld2(const char *utf8, int len, int plain, char *code, int codelen,
                            int *percent, int *text_bytes, int *reliable);

extern "C" int
fr_lang_cld2(const char *utf8, int len, int plain, char *code, int codelen, int *percent,
             int *text_bytes, int *reliable)
{
	try {
		CLD2::Language lang3[3];
		int pct3[3];
		double score3[3];
		int tb = 0, valid = 0;
		bool rel = false;
		CLD2::CLDHints hints = {nullptr, nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
		CLD2::Language l = CLD2::ExtDetectLanguageSummaryCheckUTF8(
			utf8, len, plain != 0, &hints, 0, lang3, pct3, score3, nullptr, &tb, &rel, &valid);
		const char *c = CLD2::LanguageCode(l);
		int i = 0;

		for (; c && c[i] && i < codelen - 1; i++)
			code[i] = c[i];
		code[i] = '\0';
		*percent = pct3[0];
		*text_bytes = tb;
		*reliable = rel ? 1 : 0;
		return l == CLD2::UNKNOWN_LANGUAGE || l == CLD2::TG_UNKNOWN_LANGUAGE ? 0 : 1;
	} catch (...) {
		code[0] = '\0';
		*percent = 0;
		*text_bytes = 0;
		*reliable = 0;
		return 0;
	}
}
