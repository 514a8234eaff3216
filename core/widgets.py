"""Form widgets of the site."""

from django import forms
from django.forms.utils import flatatt
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe


class Select(forms.Select):
    """Django's select, its options written in Python rather than by a template each.

    Django renders every option with a template of its own; a country menu has 250,
    and the registration form shows two per member, so rendering the options was most
    of the form's time. This writes the same HTML (``bench/country_menu.py`` checks
    it and compares the two).
    """

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        html = [f'<select name="{conditional_escape(widget["name"])}"{flatatt(widget["attrs"])}>']
        for group_name, options, _index in widget["optgroups"]:
            if group_name:
                html.append(f'<optgroup label="{conditional_escape(group_name)}">')
            html.extend(
                f'<option value="{conditional_escape(option["value"])}"'
                f"{flatatt(option['attrs'])}>{conditional_escape(option['label'])}</option>"
                for option in options
            )
            if group_name:
                html.append("</optgroup>")
        html.append("</select>")
        return mark_safe("".join(html))
